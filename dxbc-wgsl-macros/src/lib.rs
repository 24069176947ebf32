//! include_effect! (in progress).
