//! Chunk decoders: signatures (ISGN/OSGN/OSG5/PCSG/ISG1/OSG1/PSG1), reflection (RDEF), feature
//! flags (SFI0), statistics (STAT), interfaces (IFCE), root signatures (RTS0).

pub mod signature;
