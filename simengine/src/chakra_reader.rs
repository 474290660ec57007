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

/// How a field's payload is checked when the reader does not extract it.
#[derive(Clone, Copy, PartialEq)]
pub enum FieldKind {
    String,
    Message(usize),
    Scalar,
}

/// The schema as the caller derived it from mlc-chakra's descriptors.
pub struct Schema {
    /// Per message type (0: Node, 1: AttributeProto, 2: GlobalMetadata, more: nested types): field -> kind.
    pub messages: Vec<HashMap<u32, FieldKind>>,
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

/// AttributeProto: its name field and, for each oneof value field, how to read it.
pub struct AttrFields {
    pub name: u32,
    pub values: HashMap<u32, ValueKind>,
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

#[derive(Clone, Debug, PartialEq)]
enum Value {
    Bool(bool),
    Int(i128),
    Str(String),
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
        match s.messages[t].get(&f) {
            Some(FieldKind::String) if wt == 2 => {
                if std::str::from_utf8(payload).is_err() {
                    return false;
                }
            }
            Some(FieldKind::Message(sub)) if wt == 2 => {
                if !check_message(s, *sub, payload) {
                    return false;
                }
            }
            Some(FieldKind::String) | Some(FieldKind::Message(_)) => return false,
            _ => {}
        }
    }
    true
}

fn fixed(p: &[u8]) -> u64 {
    let mut a = [0u8; 8];
    a[..p.len()].copy_from_slice(p);
    u64::from_le_bytes(a)
}

fn value(kind: ValueKind, wt: u8, v: u64, p: &[u8]) -> Option<Value> {
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
        Str => Value::Str(String::from_utf8(p.to_vec()).ok()?),
        Other => Value::Other,
    })
}

/// (name, value) of one AttributeProto; None when malformed.
fn attribute(s: &Schema, b: &[u8]) -> Option<(String, Option<Value>)> {
    if !check_message(s, 1, b) {
        return None;
    }
    let mut w = Wire { b, pos: 0 };
    let (mut name, mut val) = (String::new(), None);
    while w.pos < b.len() {
        let (f, wt, v, p) = w.field()?;
        if f == s.attr.name {
            if wt != 2 {
                return None;
            }
            name = String::from_utf8(p.to_vec()).ok()?;
        } else if let Some(&k) = s.attr.values.get(&f) {
            val = Some(value(k, wt, v, p)?);
        }
    }
    Some((name, val))
}

/// One node's row, as trace._node would build it; None when the Python reader must decide.
struct Row {
    id: u64,
    name: String,
    kind: u8,
    deps: Vec<u64>,
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

fn int_attr(attrs: &HashMap<String, Option<Value>>, name: &str, default: i128, lo: i128, hi: i128) -> Option<i128> {
    let v = match attrs.get(name) {
        None => default,
        Some(Some(Value::Int(x))) => *x,
        _ => return None,
    };
    (lo..=hi).contains(&v).then_some(v)
}

fn node(s: &Schema, b: &[u8]) -> Option<Row> {
    if !check_message(s, 0, b) {
        return None;
    }
    let f = &s.node;
    let mut w = Wire { b, pos: 0 };
    let (mut id, mut name, mut kind, mut micros) = (0u64, String::new(), 0u64, 0u64);
    let (mut data, mut ctrl) = (Vec::new(), Vec::new());
    let mut attrs: HashMap<String, Option<Value>> = HashMap::new();
    while w.pos < b.len() {
        let (field, wt, v, p) = w.field()?;
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
            name = String::from_utf8(p.to_vec()).ok()?;
        } else if field == f.ctrl_deps || field == f.data_deps {
            let list = if field == f.ctrl_deps { &mut ctrl } else { &mut data };
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
            let (k, val) = attribute(s, p)?;
            attrs.insert(k, val);
        }
    }
    if kind > 7 {
        return None;
    }
    let kind = kind as u8;
    let mut deps = Vec::with_capacity(data.len() + ctrl.len());
    for d in data.into_iter().chain(ctrl) {
        if !deps.contains(&d) {
            deps.push(d);
        }
    }
    let is_cpu = match attrs.get("is_cpu_op") {
        None => false,
        Some(Some(Value::Bool(x))) => *x,
        _ => return None,
    };
    let max_u64 = u64::MAX as i128;
    let mut r = Row { id, name, kind, deps, is_cpu, duration_ns: if micros == 0 { 1.0 } else { (micros as u128 * 1000) as f64 },
                      num_ops: 0, tensor_size: 0, comm_size: 0, comm_type: 0, tag: 0, src: u32::MAX, dst: u32::MAX, group: 0 };
    match kind {
        COMPUTE => {
            r.num_ops = int_attr(&attrs, "num_ops", 0, 0, max_u64)? as u64;
            r.tensor_size = int_attr(&attrs, "tensor_size", 0, 0, max_u64)? as u64;
        }
        MEM_LOAD | MEM_STORE => r.tensor_size = int_attr(&attrs, "tensor_size", 0, 0, max_u64)? as u64,
        SEND | RECV | COLLECTIVE => {
            if is_cpu || !attrs.contains_key("comm_size") {
                return None;
            }
            r.comm_size = int_attr(&attrs, "comm_size", 0, 1, max_u64)? as u64;
            r.tag = int_attr(&attrs, "comm_tag", 0, 0, u32::MAX as i128)? as u32;
            if kind == COLLECTIVE {
                if !attrs.contains_key("comm_type") {
                    return None;
                }
                let t = int_attr(&attrs, "comm_type", 0, 0, 1 << 31)? as u32;
                if !COLLECTIVE_TYPES.contains(&t) {
                    return None;
                }
                r.comm_type = t;
                r.group = match attrs.get("pg_name") {
                    None | Some(None) => 0,
                    Some(Some(Value::Str(x))) if x.is_empty() => 0,
                    Some(Some(Value::Str(x))) if x.len() <= 18 && x.bytes().all(|c| c.is_ascii_digit()) => x.parse().ok()?,
                    _ => return None,
                };
            } else {
                if !attrs.contains_key("comm_src") || !attrs.contains_key("comm_dst") {
                    return None;
                }
                r.src = int_attr(&attrs, "comm_src", 0, 0, 1 << 31)? as u32;
                r.dst = int_attr(&attrs, "comm_dst", 0, 0, 1 << 31)? as u32;
            }
        }
        _ => {}
    }
    Some(r)
}

/// One rank's file: its rows in ascending id and its dependencies as positions in that order.
fn read_rank(s: &Schema, path: &str, rank: u32) -> Option<(Vec<Row>, Vec<Vec<u32>>)> {
    let data = std::fs::read(path).ok()?;
    let mut w = Wire { b: &data, pos: 0 };
    let mut rows = Vec::new();
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
        let r = node(s, payload)?;
        if (r.kind == SEND && r.src != rank) || (r.kind == RECV && r.dst != rank) {
            return None;
        }
        rows.push(r);
    }
    if first {
        return None;
    }
    rows.sort_by_key(|r| r.id);
    if rows.windows(2).any(|p| p[0].id == p[1].id) {
        return None;
    }
    let pos: HashMap<u64, u32> = rows.iter().enumerate().map(|(i, r)| (r.id, i as u32)).collect();
    let mut deps = Vec::with_capacity(rows.len());
    for r in &rows {
        let d: Option<Vec<u32>> = r.deps.iter().map(|x| pos.get(x).copied()).collect();
        deps.push(d?);
    }
    // Kahn's algorithm: a cycle goes to the Python reader, which names it
    let mut indeg: Vec<u32> = deps.iter().map(|d| d.len() as u32).collect();
    let mut children = vec![Vec::new(); rows.len()];
    for (c, d) in deps.iter().enumerate() {
        for &p in d {
            children[p as usize].push(c as u32);
        }
    }
    let mut stack: Vec<u32> = (0..rows.len() as u32).filter(|&i| indeg[i as usize] == 0).collect();
    let mut done = 0;
    while let Some(i) = stack.pop() {
        done += 1;
        for &c in &children[i as usize] {
            indeg[c as usize] -= 1;
            if indeg[c as usize] == 0 {
                stack.push(c);
            }
        }
    }
    (done == rows.len()).then_some((rows, deps))
}

/// Read every rank's file (`paths[rank]`) into columns.
pub fn read(s: &Schema, paths: &[String]) -> Columns {
    use rayon::prelude::*;
    let per_rank: Vec<Option<(Vec<Row>, Vec<Vec<u32>>)>> =
        paths.par_iter().enumerate().map(|(r, p)| read_rank(s, p, r as u32)).collect();
    let mut c = Columns { npu_ptr: vec![0], dep_ptr: vec![0], name_ptr: vec![0], ..Default::default() };
    for (rank, got) in per_rank.into_iter().enumerate() {
        let Some((rows, deps)) = got else {
            c.bad.push(rank as u32);
            c.npu_ptr.push(c.id.len() as u32);
            continue;
        };
        let base = c.id.len() as u32;
        for (r, d) in rows.into_iter().zip(deps) {
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
            c.deps.extend(d.into_iter().map(|x| x + base));
            c.dep_ptr.push(c.deps.len() as u32);
            c.names.extend_from_slice(r.name.as_bytes());
            c.name_ptr.push(c.names.len() as u64);
        }
        c.npu_ptr.push(c.id.len() as u32);
    }
    c
}
