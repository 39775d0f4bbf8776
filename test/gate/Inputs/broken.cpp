// Does not compile: the gate must say it could not analyse it.
int f() { return undeclared_name; }
