"""The test module :func:`conformance.suite.run_suite` hands to pytest: every suite scenario.

The catalogue is loaded first: a feature holding two scenarios of one name is a collection
error naming both lines, never a scenario pytest-bdd silently drops.
"""

from pytest_bdd import scenarios

from conformance.suite._catalogue import features_dir, load_catalogue

load_catalogue(features_dir())
scenarios(str(features_dir()))
