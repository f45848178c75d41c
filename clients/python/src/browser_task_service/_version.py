"""The package version (semver; while the major number is 0, a minor bump may break)."""

__version__ = "0.1.0"
