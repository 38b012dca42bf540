"""The pipeline: decoded games -> packed table -> one native call -> the rules -> the report;
validation; what a batch says of each entry."""
