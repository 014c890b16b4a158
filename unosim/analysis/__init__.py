"""Analyses of datasets: statistics (intervals, clustered errors, paired differences),
card values, rule comparisons and tournaments. Analysis reads datasets (or asks the
runner for runs); it never reaches into the engine."""
