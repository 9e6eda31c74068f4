"""Grimdark Future: Firefight, the project's second rule system (rules digest: ../shared/rules/firefight.md).

Today it holds the data layer only (2026-12-01): ``data`` (schemas and loaders of armies, army lists
and boards under configs/firefight/, with the force-organisation checks) and ``generator`` (seeded
48x48 boards with train and held-out seeds). File formats and every interpretation:
docs/firefight_data.md. The rules engine comes next and will load these.
"""
