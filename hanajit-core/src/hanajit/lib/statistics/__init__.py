"""Statistics: variance, norms, quantiles, medians, histograms, counting, the
NaN-ignoring reductions and NumPy's pairwise sum."""
