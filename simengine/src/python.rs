//! PyO3 glue: converts Python arrays/options to engine inputs and results back to dicts.
use pyo3::prelude::*;

/// The `infragraph._simengine` extension module.
#[pymodule]
fn _simengine(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
