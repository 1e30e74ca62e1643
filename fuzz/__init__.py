"""Coverage-guided fuzzing of the validators with atheris (`fuzz/run.sh`)."""
