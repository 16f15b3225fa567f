"""Grid design: theme entries in, symmetric block patterns out, each proven fillable and filled for quality."""
