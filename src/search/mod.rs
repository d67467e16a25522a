//! Search. (to be written)

pub mod params;
