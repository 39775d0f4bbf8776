// A third record of clash: in the shard of b.cpp, so that shard drops it itself.
int eval_source;
FACT c:@F@clash {"name": "clash", "file": "d.cpp", "line": 3}
