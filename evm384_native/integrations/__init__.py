"""EVM384 for other EVM implementations (optional extras)."""
