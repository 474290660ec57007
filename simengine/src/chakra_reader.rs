//! Chakra ET files decoded to columns: the fast path of infragraph/workload/trace.py.
//!
//! An ET file is GlobalMetadata then Nodes, each a varint length prefix and a protobuf message.
//! The field numbers and which fields are strings or nested messages come from the caller, who
//! reads them off mlc-chakra's descriptors (the schema's single source). This reader only
//! accepts what it can prove the Python reader accepts with the same values: any file with
//! something unusual (an unreadable or malformed stream, an attribute of an unexpected value
//! kind, an id twice, a dependency on a missing id, a cycle, a send or receive in the wrong
//! rank's file, a field of an unexpected wire type) is flagged `bad`, and the caller reads it
//! with the Python reader, which gives the located error or the values.
use std::collections::HashMap;

use crate::fxhash::FxBuild;

/// How a field's payload is checked when the reader does not extract it.
#[derive(Clone, Copy, PartialEq)]
pub enum FieldKind {
    String,
    Message(usize),
    Scalar,
}

/// One message type's fields: field number -> kind, as a table indexed by the number (Chakra's
/// numbers are small), so the per-field lookup of every node is an index, not a hash.
#[derive(Clone, Default)]
pub struct Fields(Vec<Option<FieldKind>>);

impl Fields {
    pub fn insert(&mut self, field: u32, kind: FieldKind) {
        let i = field as usize;
        if self.0.len() <= i {
            self.0.resize(i + 1, None);
        }
        self.0[i] = Some(kind);
    }
    fn get(&self, field: u32) -> Option<FieldKind> {
        self.0.get(field as usize).copied().flatten()
    }
}

/// The schema as the caller derived it from mlc-chakra's descriptors.
pub struct Schema {
    /// Per message type (0: Node, 1: AttributeProto, 2: GlobalMetadata, more: nested types): its fields.
    pub messages: Vec<Fields>,
    pub node: NodeFields,
    pub attr: AttrFields,
}

pub struct NodeFields {
    pub id: u32,
    pub name: u32,
    pub kind: u32,
    pub ctrl_deps: u32,
    pub data_deps: u32,
    pub duration_micros: u32,
    pub attr: u32,
}

/// AttributeProto: its name field and, for each oneof value field (by number), how to read it.
pub struct AttrFields {
    pub name: u32,
    pub values: Vec<Option<ValueKind>>,
}

#[derive(Clone, Copy, PartialEq, Debug)]
pub enum ValueKind {
    Bool,
    Int32,
    Int64,
    Uint32,
    Uint64,
    Sint32,
    Sint64,
    Fixed32,
    Fixed64,
    Sfixed32,
    Sfixed64,
    Str,
    Other,
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum Value<'a> {
    Bool(bool),
    Int(i128),
    Str(&'a str),
    Other,
}

/// Every rank's nodes in ascending id, one row each (ranks flagged `bad` have none).
#[derive(Default)]
pub struct Columns {
    pub npu_ptr: Vec<u32>,
    pub bad: Vec<u32>,
    pub id: Vec<u64>,
    pub kind: Vec<u8>,
    pub is_cpu: Vec<u8>,
    pub duration_ns: Vec<f64>,
    pub num_ops: Vec<u64>,
    pub tensor_size: Vec<u64>,
    pub comm_size: Vec<u64>,
    pub comm_type: Vec<u32>,
    pub tag: Vec<u32>,
    pub src: Vec<u32>,
    pub dst: Vec<u32>,
    pub group: Vec<u64>,
    pub dep_ptr: Vec<u32>,
    pub deps: Vec<u32>,
    pub name_ptr: Vec<u64>,
    pub names: Vec<u8>,
}

const COMPUTE: u8 = 4;
const MEM_LOAD: u8 = 2;
const MEM_STORE: u8 = 3;
const SEND: u8 = 5;
const RECV: u8 = 6;
const COLLECTIVE: u8 = 7;
/// Chakra CollectiveCommType values the replay runs (trace.COLLECTIVE_TYPES).
const COLLECTIVE_TYPES: [u32; 4] = [0, 2, 6, 7];

struct Wire<'a> {
    b: &'a [u8],
    pos: usize,
}

impl<'a> Wire<'a> {
    fn varint(&mut self) -> Option<u64> {
        let mut v: u64 = 0;
        for shift in (0..70).step_by(7) {
            let byte = *self.b.get(self.pos)?;
            self.pos += 1;
            if shift == 63 && byte > 1 {
                return None;
            }
            v |= ((byte & 0x7F) as u64) << shift;
            if byte & 0x80 == 0 {
                return Some(v);
            }
        }
        None
    }
    fn take(&mut self, n: usize) -> Option<&'a [u8]> {
        let end = self.pos.checked_add(n)?;
        let s = self.b.get(self.pos..end)?;
        self.pos = end;
        Some(s)
    }
    /// The next (field, wire type) and its payload: varint value, fixed bytes or delimited bytes.
    fn field(&mut self) -> Option<(u32, u8, u64, &'a [u8])> {
        let key = self.varint()?;
        let (field, wt) = ((key >> 3) as u32, (key & 7) as u8);
        if field == 0 || key >> 3 > 0x1FFF_FFFF {
            return None;
        }
        match wt {
            0 => Some((field, wt, self.varint()?, &[])),
            1 => Some((field, wt, 0, self.take(8)?)),
            2 => {
                let n = self.varint()? as usize;
                Some((field, wt, 0, self.take(n)?))
            }
            5 => Some((field, wt, 0, self.take(4)?)),
            _ => None, // groups: left to the Python reader
        }
    }
}

/// Structural check of a message of type `t`: every field well formed, strings UTF-8, nested messages checked.
fn check_message(s: &Schema, t: usize, b: &[u8]) -> bool {
    let mut w = Wire { b, pos: 0 };
    while w.pos < b.len() {
        let Some((f, wt, _, payload)) = w.field() else { return false };
        if !check_field(s, s.messages[t].get(f), wt, payload) {
            return false;
        }
    }
    true
}

/// One field of a message against its kind (check_message's rule for a single field).
fn check_field(s: &Schema, kind: Option<FieldKind>, wt: u8, payload: &[u8]) -> bool {
    match kind {
        Some(FieldKind::String) => wt == 2 && std::str::from_utf8(payload).is_ok(),
        Some(FieldKind::Message(sub)) => wt == 2 && check_message(s, sub, payload),
        _ => true,
    }
}

fn fixed(p: &[u8]) -> u64 {
    let mut a = [0u8; 8];
    a[..p.len()].copy_from_slice(p);
    u64::from_le_bytes(a)
}

fn value(kind: ValueKind, wt: u8, v: u64, p: &[u8]) -> Option<Value<'_>> {
    use ValueKind::*;
    let want = match kind {
        Bool | Int32 | Int64 | Uint32 | Uint64 | Sint32 | Sint64 => 0,
        Fixed64 | Sfixed64 => 1,
        Fixed32 | Sfixed32 => 5,
        Str => 2,
        Other => return Some(Value::Other),
    };
    if wt != want {
        return None;
    }
    Some(match kind {
        Bool => Value::Bool(v != 0),
        Int32 => Value::Int(v as u32 as i32 as i128),
        Int64 => Value::Int(v as i64 as i128),
        Uint32 => Value::Int(v as u32 as i128),
        Uint64 => Value::Int(v as i128),
        Sint32 => {
            let x = v as u32;
            Value::Int(((x >> 1) as i32 ^ -((x & 1) as i32)) as i128)
        }
        Sint64 => Value::Int(((v >> 1) as i64 ^ -((v & 1) as i64)) as i128),
        Fixed32 => Value::Int(fixed(p) as u32 as i128),
        Fixed64 => Value::Int(fixed(p) as i128),
        Sfixed32 => Value::Int(fixed(p) as u32 as i32 as i128),
        Sfixed64 => Value::Int(fixed(p) as i64 as i128),
        Str => Value::Str(std::str::from_utf8(p).ok()?),
        Other => Value::Other,
    })
}

/// The attribute names the reader extracts (trace._node reads these; any other name is checked
/// for well-formedness only).
const ATTR_NAMES: [&[u8]; 9] =
    [b"is_cpu_op", b"num_ops", b"tensor_size", b"comm_size", b"comm_tag", b"comm_type", b"comm_src", b"comm_dst", b"pg_name"];
const IS_CPU_OP: usize = 0;
const NUM_OPS: usize = 1;
const TENSOR_SIZE: usize = 2;
const COMM_SIZE: usize = 3;
const COMM_TAG: usize = 4;
const COMM_TYPE: usize = 5;
const COMM_SRC: usize = 6;
const COMM_DST: usize = 7;
const PG_NAME: usize = 8;

/// A node's attributes by ATTR_NAMES index: None when absent, Some(None) when present without a
/// value; a later attribute of the same name replaces an earlier one (as a Python dict does).
type Attrs<'a> = [Option<Option<Value<'a>>>; 9];

/// One AttributeProto, checked (as check_message of type 1) and read in one pass: (its index in
/// ATTR_NAMES or None for another name, its value); None when malformed.
fn attribute<'a>(s: &Schema, b: &'a [u8]) -> Option<(Option<usize>, Option<Value<'a>>)> {
    let mut w = Wire { b, pos: 0 };
    let (mut name, mut val): (&[u8], _) = (b"", None);
    while w.pos < b.len() {
        let (f, wt, v, p) = w.field()?;
        let fk = s.messages[1].get(f);
        let kind = if f == s.attr.name { None } else { s.attr.values.get(f as usize).copied().flatten() };
        // a string field read as a string below is checked there (UTF-8 once per field)
        let read_as_string = fk == Some(FieldKind::String) && (f == s.attr.name || kind == Some(ValueKind::Str));
        if !read_as_string && !check_field(s, fk, wt, p) {
            return None;
        }
        if f == s.attr.name {
            if wt != 2 {
                return None;
            }
            std::str::from_utf8(p).ok()?;
            name = p;
        } else if let Some(k) = kind {
            val = Some(value(k, wt, v, p)?);
        }
    }
    Some((ATTR_NAMES.iter().position(|n| *n == name), val))
}

/// One node's row, as trace._node would build it; None when the Python reader must decide.
/// `deps` are appended to the caller's list (data then control dependencies, first occurrence kept).
struct Row<'a> {
    id: u64,
    name: &'a str,
    kind: u8,
    is_cpu: bool,
    duration_ns: f64,
    num_ops: u64,
    tensor_size: u64,
    comm_size: u64,
    comm_type: u32,
    tag: u32,
    src: u32,
    dst: u32,
    group: u64,
}

fn int_attr(attrs: &Attrs, name: usize, default: i128, lo: i128, hi: i128) -> Option<i128> {
    let v = match attrs[name] {
        None => default,
        Some(Some(Value::Int(x))) => x,
        _ => return None,
    };
    (lo..=hi).contains(&v).then_some(v)
}

/// Per-rank scratch lists of a node's data and control dependencies (reused: no allocation per node).
#[derive(Default)]
struct DepScratch {
    data: Vec<u64>,
    ctrl: Vec<u64>,
}

/// Decode one Node (checked as check_message of type 0, in the same pass), its dependencies
/// appended to `deps`.
fn node<'a>(s: &Schema, b: &'a [u8], deps: &mut Vec<u64>, scratch: &mut DepScratch) -> Option<Row<'a>> {
    let f = &s.node;
    let mut w = Wire { b, pos: 0 };
    let (mut id, mut name, mut kind, mut micros) = (0u64, "", 0u64, 0u64);
    scratch.data.clear();
    scratch.ctrl.clear();
    let DepScratch { data, ctrl } = scratch;
    let mut attrs: Attrs = [None; 9];
    while w.pos < b.len() {
        let (field, wt, v, p) = w.field()?;
        let fk = s.messages[0].get(field);
        if field == f.attr && fk == Some(FieldKind::Message(1)) {
            if wt != 2 {
                return None;
            }
            let (k, val) = attribute(s, p)?;
            if let Some(k) = k {
                attrs[k] = Some(val);
            }
            continue;
        }
        if field == f.name && fk == Some(FieldKind::String) {
            // check_field's rule for a string, applied once while reading it
            if wt != 2 {
                return None;
            }
            name = std::str::from_utf8(p).ok()?;
            continue;
        }
        if !check_field(s, fk, wt, p) {
            return None;
        }
        if field == f.id || field == f.kind || field == f.duration_micros {
            if wt != 0 {
                return None;
            }
            if field == f.id {
                id = v;
            } else if field == f.kind {
                kind = v;
            } else {
                micros = v;
            }
        } else if field == f.name {
            name = std::str::from_utf8(p).ok()?;
        } else if field == f.ctrl_deps || field == f.data_deps {
            let list = if field == f.ctrl_deps { &mut *ctrl } else { &mut *data };
            if wt == 0 {
                list.push(v);
            } else if wt == 2 {
                let mut inner = Wire { b: p, pos: 0 };
                while inner.pos < p.len() {
                    list.push(inner.varint()?);
                }
            } else {
                return None;
            }
        } else if field == f.attr {
            // the attr field under a kind other than AttributeProto: checked above, read as the old reader did
            let (k, val) = attribute(s, p)?;
            if let Some(k) = k {
                attrs[k] = Some(val);
            }
        }
    }
    if kind > 7 {
        return None;
    }
    let kind = kind as u8;
    let first = deps.len();
    for &d in data.iter().chain(ctrl.iter()) {
        if !deps[first..].contains(&d) {
            deps.push(d);
        }
    }
    let is_cpu = match attrs[IS_CPU_OP] {
        None => false,
        Some(Some(Value::Bool(x))) => x,
        _ => return None,
    };
    if micros > u64::MAX / 1000 {
        return None; // its ns overflow ASTRA-sim's u64: the Python reader (trace.py) locates the error
    }
    let max_u64 = u64::MAX as i128;
    let mut r = Row { id, name, kind, is_cpu, duration_ns: if micros == 0 { 1.0 } else { (micros as u128 * 1000) as f64 },
                      num_ops: 0, tensor_size: 0, comm_size: 0, comm_type: 0, tag: 0, src: u32::MAX, dst: u32::MAX, group: 0 };
    match kind {
        COMPUTE => {
            r.num_ops = int_attr(&attrs, NUM_OPS, 0, 0, max_u64)? as u64;
            r.tensor_size = int_attr(&attrs, TENSOR_SIZE, 0, 0, max_u64)? as u64;
        }
        MEM_LOAD | MEM_STORE => r.tensor_size = int_attr(&attrs, TENSOR_SIZE, 0, 0, max_u64)? as u64,
        SEND | RECV | COLLECTIVE => {
            if is_cpu || attrs[COMM_SIZE].is_none() {
                return None;
            }
            r.comm_size = int_attr(&attrs, COMM_SIZE, 0, 1, max_u64)? as u64;
            r.tag = int_attr(&attrs, COMM_TAG, 0, 0, u32::MAX as i128)? as u32;
            if kind == COLLECTIVE {
                attrs[COMM_TYPE].as_ref()?;
                let t = int_attr(&attrs, COMM_TYPE, 0, 0, 1 << 31)? as u32;
                if !COLLECTIVE_TYPES.contains(&t) {
                    return None;
                }
                r.comm_type = t;
                r.group = match attrs[PG_NAME] {
                    None | Some(None) => 0,
                    Some(Some(Value::Str(""))) => 0,
                    Some(Some(Value::Str(x))) if x.len() <= 18 && x.bytes().all(|c| c.is_ascii_digit()) => x.parse().ok()?,
                    _ => return None,
                };
            } else {
                if attrs[COMM_SRC].is_none() || attrs[COMM_DST].is_none() {
                    return None;
                }
                r.src = int_attr(&attrs, COMM_SRC, 0, 0, 1 << 31)? as u32;
                r.dst = int_attr(&attrs, COMM_DST, 0, 0, 1 << 31)? as u32;
            }
        }
        _ => {}
    }
    Some(r)
}

/// One rank's columns (the rows in ascending id, dependencies as row positions within the rank).
#[derive(Default)]
struct RankColumns {
    id: Vec<u64>,
    kind: Vec<u8>,
    is_cpu: Vec<u8>,
    duration_ns: Vec<f64>,
    num_ops: Vec<u64>,
    tensor_size: Vec<u64>,
    comm_size: Vec<u64>,
    comm_type: Vec<u32>,
    tag: Vec<u32>,
    src: Vec<u32>,
    dst: Vec<u32>,
    group: Vec<u64>,
    dep_ptr: Vec<u32>,
    deps: Vec<u32>,
    name_ptr: Vec<u64>,
    names: Vec<u8>,
}

/// One rank's file: its rows in ascending id and its dependencies as positions in that order.
fn read_rank(s: &Schema, path: &str, rank: u32) -> Option<RankColumns> {
    let data = std::fs::read(path).ok()?;
    let mut w = Wire { b: &data, pos: 0 };
    let mut rows = Vec::new();
    let mut dep_ids: Vec<u64> = Vec::new();
    let mut dep_at: Vec<(u32, u32)> = Vec::new();
    let mut scratch = DepScratch::default();
    let mut first = true;
    while w.pos < data.len() {
        let n = w.varint()? as usize;
        let payload = w.take(n)?;
        if first {
            if !check_message(s, 2, payload) {
                return None;
            }
            first = false;
            continue;
        }
        let lo = dep_ids.len() as u32;
        let r = node(s, payload, &mut dep_ids, &mut scratch)?;
        if (r.kind == SEND && r.src != rank) || (r.kind == RECV && r.dst != rank) {
            return None;
        }
        dep_at.push((lo, dep_ids.len() as u32));
        rows.push(r);
    }
    if first {
        return None;
    }
    // rows in ascending id (a writer's usual order: then no sort)
    let mut order: Vec<u32> = (0..rows.len() as u32).collect();
    if rows.windows(2).any(|p| p[0].id > p[1].id) {
        order.sort_by_key(|&i| rows[i as usize].id);
    }
    if order.windows(2).any(|p| rows[p[0] as usize].id == rows[p[1] as usize].id) {
        return None;
    }
    // id -> position: arithmetic when the ids are consecutive, else a map
    let n = rows.len();
    let first_id = order.first().map(|&i| rows[i as usize].id).unwrap_or(0);
    let consecutive = n == 0 || rows[order[n - 1] as usize].id - first_id == (n - 1) as u64;
    let map: HashMap<u64, u32, FxBuild> = if consecutive {
        HashMap::default()
    } else {
        order.iter().enumerate().map(|(p, &i)| (rows[i as usize].id, p as u32)).collect()
    };
    let pos = |x: u64| -> Option<u32> {
        if consecutive {
            (x >= first_id && x - first_id < n as u64).then(|| (x - first_id) as u32)
        } else {
            map.get(&x).copied()
        }
    };
    let n_rows = rows.len();
    let mut c = RankColumns {
        id: Vec::with_capacity(n_rows), kind: Vec::with_capacity(n_rows), is_cpu: Vec::with_capacity(n_rows),
        duration_ns: Vec::with_capacity(n_rows), num_ops: Vec::with_capacity(n_rows), tensor_size: Vec::with_capacity(n_rows),
        comm_size: Vec::with_capacity(n_rows), comm_type: Vec::with_capacity(n_rows), tag: Vec::with_capacity(n_rows),
        src: Vec::with_capacity(n_rows), dst: Vec::with_capacity(n_rows), group: Vec::with_capacity(n_rows),
        dep_ptr: Vec::with_capacity(n_rows + 1), deps: Vec::with_capacity(dep_ids.len()), name_ptr: Vec::with_capacity(n_rows + 1),
        names: Vec::with_capacity(rows.iter().map(|r| r.name.len()).sum()),
    };
    c.dep_ptr.push(0);
    c.name_ptr.push(0);
    let mut forward = true; // every dependency on an earlier row: no cycle possible
    for (p, &i) in order.iter().enumerate() {
        let r = &rows[i as usize];
        let (lo, hi) = dep_at[i as usize];
        for &d in &dep_ids[lo as usize..hi as usize] {
            let q = pos(d)?;
            forward &= (q as usize) < p;
            c.deps.push(q);
        }
        c.dep_ptr.push(c.deps.len() as u32);
        c.id.push(r.id);
        c.kind.push(r.kind);
        c.is_cpu.push(r.is_cpu as u8);
        c.duration_ns.push(r.duration_ns);
        c.num_ops.push(r.num_ops);
        c.tensor_size.push(r.tensor_size);
        c.comm_size.push(r.comm_size);
        c.comm_type.push(r.comm_type);
        c.tag.push(r.tag);
        c.src.push(r.src);
        c.dst.push(r.dst);
        c.group.push(r.group);
        c.names.extend_from_slice(r.name.as_bytes());
        c.name_ptr.push(c.names.len() as u64);
    }
    (forward || acyclic(&c.dep_ptr, &c.deps)).then_some(c)
}

/// Kahn's algorithm over the rank's dependencies (CSR by row); a cycle goes to the Python reader, which names it.
fn acyclic(dep_ptr: &[u32], deps: &[u32]) -> bool {
    let n = dep_ptr.len() - 1;
    let mut indeg: Vec<u32> = dep_ptr.windows(2).map(|w| w[1] - w[0]).collect();
    let mut child_ptr = vec![0u32; n + 1];
    for &p in deps {
        child_ptr[p as usize + 1] += 1;
    }
    for i in 0..n {
        child_ptr[i + 1] += child_ptr[i];
    }
    let mut fill = child_ptr.clone();
    let mut children = vec![0u32; deps.len()];
    for c in 0..n {
        for &p in &deps[dep_ptr[c] as usize..dep_ptr[c + 1] as usize] {
            children[fill[p as usize] as usize] = c as u32;
            fill[p as usize] += 1;
        }
    }
    let mut stack: Vec<u32> = (0..n as u32).filter(|&i| indeg[i as usize] == 0).collect();
    let mut done = 0;
    while let Some(i) = stack.pop() {
        done += 1;
        for &c in &children[child_ptr[i as usize] as usize..child_ptr[i as usize + 1] as usize] {
            indeg[c as usize] -= 1;
            if indeg[c as usize] == 0 {
                stack.push(c);
            }
        }
    }
    done == n
}

/// Read every rank's file (`paths[rank]`) into columns.
pub fn read(s: &Schema, paths: &[String]) -> Columns {
    use rayon::prelude::*;
    let per_rank: Vec<Option<RankColumns>> = paths.par_iter().enumerate().map(|(r, p)| read_rank(s, p, r as u32)).collect();
    let rows: usize = per_rank.iter().flatten().map(|r| r.id.len()).sum();
    let edges: usize = per_rank.iter().flatten().map(|r| r.deps.len()).sum();
    let bytes: usize = per_rank.iter().flatten().map(|r| r.names.len()).sum();
    let mut c = Columns { npu_ptr: Vec::with_capacity(paths.len() + 1), id: Vec::with_capacity(rows), kind: Vec::with_capacity(rows),
                          is_cpu: Vec::with_capacity(rows), duration_ns: Vec::with_capacity(rows), num_ops: Vec::with_capacity(rows),
                          tensor_size: Vec::with_capacity(rows), comm_size: Vec::with_capacity(rows),
                          comm_type: Vec::with_capacity(rows), tag: Vec::with_capacity(rows), src: Vec::with_capacity(rows),
                          dst: Vec::with_capacity(rows), group: Vec::with_capacity(rows), dep_ptr: Vec::with_capacity(rows + 1),
                          deps: Vec::with_capacity(edges), name_ptr: Vec::with_capacity(rows + 1), names: Vec::with_capacity(bytes),
                          bad: Vec::new() };
    c.npu_ptr.push(0);
    c.dep_ptr.push(0);
    c.name_ptr.push(0);
    for (rank, got) in per_rank.into_iter().enumerate() {
        if let Some(r) = got {
            let (base, dep_base, name_base) = (c.id.len() as u32, c.deps.len() as u32, c.names.len() as u64);
            c.id.extend_from_slice(&r.id);
            c.kind.extend_from_slice(&r.kind);
            c.is_cpu.extend_from_slice(&r.is_cpu);
            c.duration_ns.extend_from_slice(&r.duration_ns);
            c.num_ops.extend_from_slice(&r.num_ops);
            c.tensor_size.extend_from_slice(&r.tensor_size);
            c.comm_size.extend_from_slice(&r.comm_size);
            c.comm_type.extend_from_slice(&r.comm_type);
            c.tag.extend_from_slice(&r.tag);
            c.src.extend_from_slice(&r.src);
            c.dst.extend_from_slice(&r.dst);
            c.group.extend_from_slice(&r.group);
            c.deps.extend(r.deps.iter().map(|x| x + base));
            c.dep_ptr.extend(r.dep_ptr[1..].iter().map(|x| x + dep_base));
            c.names.extend_from_slice(&r.names);
            c.name_ptr.extend(r.name_ptr[1..].iter().map(|x| x + name_base));
        } else {
            c.bad.push(rank as u32);
        }
        c.npu_ptr.push(c.id.len() as u32);
    }
    c
}
