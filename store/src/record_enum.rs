//! The macro behind the record's closed vocabularies: each value has one stable text form,
//! used as its serde name, its ClickHouse value and in reports. A value the enum does not know
//! is a deserialization error naming the value (serde's "unknown variant"), never a panic.

macro_rules! record_enum {
    ($(#[$meta:meta])* $name:ident { $($(#[$vmeta:meta])* $variant:ident => $text:literal),+ $(,)? }) => {
        $(#[$meta])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        #[derive(serde::Serialize, serde::Deserialize)]
        #[derive(rkyv::Archive, rkyv::Serialize, rkyv::Deserialize)]
        #[rkyv(derive(Debug, PartialEq, Eq))]
        pub enum $name {
            $($(#[$vmeta])* #[serde(rename = $text)] $variant),+
        }

        impl $name {
            /// Every value, in declaration order (reports iterate over these).
            pub const ALL: &'static [$name] = &[$($name::$variant),+];

            /// The stable text form used in JSON, ClickHouse and reports.
            pub fn as_str(self) -> &'static str {
                match self { $($name::$variant => $text),+ }
            }

            /// Parses the stable text form.
            pub fn parse(text: &str) -> Option<Self> {
                match text { $($text => Some($name::$variant),)+ _ => None }
            }
        }

        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(self.as_str())
            }
        }

        impl std::str::FromStr for $name {
            type Err = String;
            fn from_str(text: &str) -> Result<Self, String> {
                Self::parse(text).ok_or_else(|| format!("unknown {} {text:?}", stringify!($name)))
            }
        }
    };
}
