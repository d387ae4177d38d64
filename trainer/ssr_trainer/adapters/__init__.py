"""Converters from ssr's training-sample JSONL to other RL trainers' inputs (see trainer/README.md)."""
