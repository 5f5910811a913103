// Placeholder until the command line is wired to the pipeline (this session).
int main() { return 0; }
