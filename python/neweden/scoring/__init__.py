"""The pipeline: decoded games -> packed table -> one native call -> the rules -> the report
(typed: :mod:`neweden.scoring.types`); validation; what a batch says of each entry."""
