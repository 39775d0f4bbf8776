// A summary of a format version this runner does not read.
int version2_source;
FACT-DOC {"format": "torch-tidy-summaries", "version": 2, "functions": {}}
