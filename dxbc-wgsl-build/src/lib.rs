//! build.rs helper (in progress).
