// Another function of the same USR as one in b.cpp and d.cpp, with other facts.
int utils_source;
FACT c:@F@clash {"name": "clash", "file": "c.cpp", "line": 3}
