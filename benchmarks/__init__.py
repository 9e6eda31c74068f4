"""Speed measurements (``python -m benchmarks.<name>``). They print figures; nothing asserts on time."""
