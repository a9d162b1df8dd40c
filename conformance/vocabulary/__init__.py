"""Vocabulary coverage: every element of the fixture vocabulary, and which ones Runs reach.

:func:`elements` lists the vocabulary, read from the scenario-fixture and run-observation
contracts (enum values, discriminated-union branches such as turn kinds per component and tool
response kinds) plus the families no schema names (each trace event type as a disconnect point,
each agent turn kind as the structural repair answer, each limit at its bound, each intent and
state of an earlier Run, each Tool Call ID class). :class:`VocabularyMeter` counts what the Runs
it is shown reach; ``srdh verify`` fails when the default suite run leaves an element unreached
(issue 19 item 3).
"""

from conformance.vocabulary._id_classes import ID_CLASSES, id_classes_of
from conformance.vocabulary._meter import (
    UNREACHABLE,
    Coverage,
    Element,
    VocabularyMeter,
    elements,
    reached_by,
)
from conformance.vocabulary._schema_walk import (
    ContractVocabulary,
    SchemaElement,
    contract_vocabulary,
)

__all__ = [
    "ID_CLASSES",
    "UNREACHABLE",
    "ContractVocabulary",
    "Coverage",
    "Element",
    "SchemaElement",
    "VocabularyMeter",
    "contract_vocabulary",
    "elements",
    "id_classes_of",
    "reached_by",
]
