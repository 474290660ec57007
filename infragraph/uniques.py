"""np.unique's answers for the two shapes the hot paths need, without its general machinery.

`np.unique(a, axis=0, return_inverse=True)` views the rows as one structured value each and
sorts those, which is several times slower than sorting the columns with `np.lexsort`; and
`np.unique(ids, return_inverse=True)` sorts even when the ids are small integers a table can
number. Both functions here give exactly np.unique's results (same order, same inverse), so a
caller can switch without changing any answer: the workload replay (groups and message keys of
hundreds of thousands of nodes) and the link tiers of a large graph.
"""

from __future__ import annotations

import numpy as np


def unique_rows(a: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(distinct rows in lexicographic order, each row's index among them): np.unique(a, axis=0,
    return_inverse=True) for a 2-D integer array, the inverse 1-D."""
    if a.shape[0] == 0:
        return a[:0], np.zeros(0, dtype=np.int64)
    order = np.lexsort(a.T[::-1])  # lexsort's last key is its primary one
    ordered = a[order]
    new = np.ones(ordered.shape[0], dtype=bool)
    new[1:] = (ordered[1:] != ordered[:-1]).any(axis=1)
    inverse = np.empty(ordered.shape[0], dtype=np.int64)
    inverse[order] = np.cumsum(new) - 1
    return ordered[new], inverse


def dense_ids(values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """np.unique(values, return_inverse=True) for a 1-D integer array: by a table when the values
    are non-negative and at most 4 x their count (ids such as communicator groups), else np.unique."""
    if values.size and 0 <= values.min() and values.max() <= 4 * values.size:
        present = np.zeros(int(values.max()) + 1, dtype=bool)
        present[values] = True
        return np.flatnonzero(present).astype(values.dtype), (np.cumsum(present) - 1)[values]
    return np.unique(values, return_inverse=True)
