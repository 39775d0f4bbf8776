// The inline function of a header, as a.cpp has it, and a clash with c.cpp and d.cpp.
int train_source;
FACT c:@F@inl {"name": "inl", "file": "inl.h", "line": 1, "returns": "parameter 0"}
FACT c:@F@clash {"name": "clash", "file": "b.cpp", "line": 4}
