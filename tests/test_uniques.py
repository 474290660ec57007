"""infragraph.uniques: np.unique's exact answers (order, inverse) by faster routes."""

from __future__ import annotations

import numpy as np
import pytest

from infragraph.uniques import dense_ids, unique_rows


@pytest.mark.parametrize("seed", range(5))
def test_unique_rows_is_np_unique_on_axis_0(seed):
    rng = np.random.default_rng(seed)
    a = rng.integers(-3, 4, size=(int(rng.integers(1, 400)), int(rng.integers(1, 5))))
    rows, inverse = unique_rows(a)
    want_rows, want_inverse = np.unique(a, axis=0, return_inverse=True)
    assert np.array_equal(rows, want_rows) and np.array_equal(inverse, want_inverse.reshape(-1))
    assert np.array_equal(rows[inverse], a)


def test_unique_rows_of_nothing():
    rows, inverse = unique_rows(np.zeros((0, 4), dtype=np.int64))
    assert rows.shape == (0, 4) and inverse.size == 0


@pytest.mark.parametrize("values", [[5, 3, 3, 9, 0], [7], [2**40, 1, 2**40], [-1, 4, -1], []])
def test_dense_ids_is_np_unique(values):
    a = np.asarray(values, dtype=np.int64)
    ids, inverse = dense_ids(a)
    want_ids, want_inverse = np.unique(a, return_inverse=True)
    assert np.array_equal(ids, want_ids) and np.array_equal(inverse, want_inverse) and ids.dtype == want_ids.dtype
