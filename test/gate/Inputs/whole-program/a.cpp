// For the fake clang-tidy (Inputs/bin/torch-tidy): its summary pass writes the FACT
// lines of a file as that file's summary, one function (USR, JSON record) a line.
int model_source;
FACT c:@F@model {"name": "model", "file": "a.cpp", "line": 4, "returns": "logits"}
FACT c:@F@inl {"name": "inl", "file": "inl.h", "line": 1, "returns": "parameter 0"}
