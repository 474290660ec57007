//! ASTRA-sim's per-NPU event lists (518bd51, astra-sim/system/Sys.cc `try_register_event`,
//! `call_events`): an event the system layer registers for time `t` joins that NPU's list for
//! `t`; only the first one of a list schedules a network event, and when it fires the whole list
//! runs, including events registered for that same instant while it runs (a zero delay). So an
//! NPU's system events at one instant run together, at the place of the first one in the network
//! event queue, ahead of network events (link hops, arrivals) scheduled after it.
//!
//! The engine keeps these lists for the events of ASTRA-sim's direct all-reduce
//! (`direct_packets`), whose order among same-instant link events decides who gets a link first.
use std::collections::HashMap;

use crate::fxhash::FxBuild;

/// A system-layer event of the direct all-reduce, on member-phase `mps`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SysEv {
    /// The phase's first round goes out (the MemBus events of the packets StreamInit inserts).
    Start { mps: u32 },
    /// A handed-over message is past the endpoint delay (MemBus).
    MemBus { mps: u32, round: u8 },
    /// A message has been processed and frees a packet (`General`).
    General { mps: u32 },
}

/// The lists not yet run, by (NPU rank, bits of the instant).
#[derive(Default)]
pub struct SysLists {
    lists: HashMap<(u32, u64), Vec<SysEv>, FxBuild>,
}

impl SysLists {
    /// Registers `ev` on NPU `rank` for time `at`; true when it opens the list, so the caller
    /// schedules the list's network event at `at`.
    pub fn register(&mut self, rank: u32, at: f64, ev: SysEv) -> bool {
        let list = self.lists.entry((rank, at.to_bits())).or_default();
        list.push(ev);
        list.len() == 1
    }

    /// Event `i` of NPU `rank`'s list for `now`; None (and the list is dropped) past its end.
    /// Asked with i = 0, 1, ... while the list runs, so it sees events registered meanwhile.
    pub fn next(&mut self, rank: u32, now: f64, i: usize) -> Option<SysEv> {
        let key = (rank, now.to_bits());
        let ev = self.lists.get(&key).and_then(|l| l.get(i).copied());
        if ev.is_none() {
            self.lists.remove(&key);
        }
        ev
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_network_event_per_npu_and_instant_runs_events_added_while_it_runs() {
        let mut s = SysLists::default();
        assert!(s.register(3, 10.0, SysEv::General { mps: 1 }));
        assert!(!s.register(3, 10.0, SysEv::General { mps: 2 }));
        assert!(s.register(4, 10.0, SysEv::General { mps: 9 }));
        assert!(s.register(3, 11.0, SysEv::General { mps: 1 }));
        assert_eq!(s.next(3, 10.0, 0), Some(SysEv::General { mps: 1 }));
        assert!(!s.register(3, 10.0, SysEv::MemBus { mps: 5, round: 0 })); // a zero delay
        assert_eq!(s.next(3, 10.0, 1), Some(SysEv::General { mps: 2 }));
        assert_eq!(s.next(3, 10.0, 2), Some(SysEv::MemBus { mps: 5, round: 0 }));
        assert_eq!(s.next(3, 10.0, 3), None);
        assert!(s.register(3, 10.0, SysEv::General { mps: 1 })); // a new list after it ran
    }
}
