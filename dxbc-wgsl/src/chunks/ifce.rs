//! `IFCE`: interfaces (SM5 dynamic linkage), read minimally: the counts of the header and the
//! class types' names.
//!
//! Header: class-instance count, class-type count, interface-slot record count, interface-slot
//! count, then the offsets of the class-instance, class-type and interface-slot tables. A class
//! type record is 12 bytes: name offset, `u16` ID, `u16` constant-buffer stride, `u16` texture,
//! `u16` sampler.

use super::ChunkBytes;
use crate::container::Chunk;
use crate::error::ReadResult;

/// A class type.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClassType {
    /// Name.
    pub name: String,
    /// Class ID.
    pub id: u16,
}

/// The `IFCE` chunk, minimally.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Interfaces {
    /// Class instances.
    pub class_instance_count: u32,
    /// Class types.
    pub class_type_count: u32,
    /// Interface slot records.
    pub interface_slot_record_count: u32,
    /// Interface slots.
    pub interface_slot_count: u32,
    /// The class types, in table order.
    pub class_types: Vec<ClassType>,
}

/// Parses an `IFCE` chunk.
///
/// # Errors
/// [`ReadError::Truncated`](crate::ReadError::Truncated) /
/// [`ReadError::Malformed`](crate::ReadError::Malformed) with container offsets.
pub fn parse(chunk: &Chunk<'_>) -> ReadResult<Interfaces> {
    let b = ChunkBytes::new(chunk);
    let class_instance_count = b.u32(0, "IFCE class instance count")?;
    let class_type_count = b.u32(4, "IFCE class type count")?;
    let interface_slot_record_count = b.u32(8, "IFCE interface slot record count")?;
    let interface_slot_count = b.u32(12, "IFCE interface slot count")?;
    let class_type_offset = b.u32(20, "IFCE class type offset")? as usize;
    let n = b.check_array(class_type_offset, class_type_count, 12, "IFCE class types", 4)?;
    let mut class_types = Vec::with_capacity(n);
    for i in 0..n {
        let at = class_type_offset + 12 * i;
        let name_offset = b.u32(at, "class type name offset")? as usize;
        let id = b.u16(at + 4, "class type ID")?;
        class_types.push(ClassType { name: b.cstr(name_offset, "class type name", at)?, id });
    }
    Ok(Interfaces {
        class_instance_count,
        class_type_count,
        interface_slot_record_count,
        interface_slot_count,
        class_types,
    })
}
