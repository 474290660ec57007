//! Engine errors. Every failure a user can cause is a `SimError` value (never a panic), so the
//! PyO3 glue can turn it into a Python exception that names the offending nodes or options.
use std::fmt;

#[derive(Debug, Clone, PartialEq)]
pub enum SimError {
    /// Malformed arrays or option values (lengths differ, ids out of range, negative sizes...).
    InvalidInput(String),
    /// No path between two graph nodes (node ids; Python turns them into names).
    Unreachable { src: u32, dst: u32 },
    /// A collective/algorithm combination the engine does not implement, or a shape it needs
    /// (e.g. halving-doubling on a non-power-of-two group).
    Unsupported(String),
    /// The event queue ran dry while chunks were still unfinished.
    Deadlock(String),
    /// An error caused by one option: `field` is the SimulationOptions field ("algorithm",
    /// "routing_policy"), which the Python side turns into the option the user gave (`--algorithm`)
    /// instead of an error located nowhere.
    About { field: &'static str, error: Box<SimError> },
}

impl SimError {
    /// This error, said to be caused by the option `field` (an `About` keeps the innermost cause).
    pub fn about(self, field: &'static str) -> SimError {
        match self {
            SimError::About { .. } => self,
            error => SimError::About { field, error: Box::new(error) },
        }
    }
}

impl fmt::Display for SimError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SimError::InvalidInput(m) => write!(f, "invalid input: {m}"),
            SimError::Unreachable { src, dst } => {
                write!(f, "no path from node {src} to node {dst}")
            }
            SimError::Unsupported(m) => write!(f, "unsupported: {m}"),
            SimError::Deadlock(m) => write!(f, "simulation deadlocked: {m}"),
            SimError::About { error, .. } => error.fmt(f),
        }
    }
}

impl std::error::Error for SimError {}

pub type SimResult<T> = Result<T, SimError>;

pub(crate) fn invalid<T>(msg: impl Into<String>) -> SimResult<T> {
    Err(SimError::InvalidInput(msg.into()))
}
