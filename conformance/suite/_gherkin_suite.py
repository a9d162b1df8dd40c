"""The test module :func:`conformance.suite.run_suite` hands to pytest: every suite scenario."""

from pytest_bdd import scenarios

from conformance.suite._catalogue import features_dir

scenarios(str(features_dir()))
