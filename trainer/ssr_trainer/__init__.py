"""ssr's trainer: a policy service that samples (vLLM-compatible subset) and trains one policy on
ssr's training samples. See trainer/README.md."""
