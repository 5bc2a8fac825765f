//! Failures that come from this machine, not from the site: told apart by the OS error number
//! (or hickory's own pool error), never by message text, so callers can keep them out of a
//! site's verdict.

use std::fmt;
use std::io;

use rustix::io::Errno;

/// A resource of this machine that ran out.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum LocalResource {
    /// EMFILE: the process's open-files limit.
    FileDescriptors,
    /// ENFILE: the system's file table.
    FileTable,
    /// EADDRNOTAVAIL: no local port or address to bind.
    LocalPorts,
    /// ENOBUFS: kernel socket buffers.
    SocketBuffers,
    /// The resolver had no socket to send a query on.
    DnsSockets,
}

/// What every rendering of a [`LocalResource`] starts with, for people reading a log. Never
/// parsed back: a server can write the same words (decisions read the typed flag,
/// [`crate::net::SiteClient::local_failure`]).
pub const LOCAL_RESOURCE_TAG: &str = "local resource: ";

impl LocalResource {
    /// Every resource.
    pub const ALL: [Self; 5] = [
        Self::FileDescriptors,
        Self::FileTable,
        Self::LocalPorts,
        Self::SocketBuffers,
        Self::DnsSockets,
    ];

    /// The resource an OS error shows ran out, if any.
    pub fn from_io(err: &io::Error) -> Option<Self> {
        let errno = Errno::from_io_error(err)?;
        Self::from_errno(errno)
    }

    fn from_errno(errno: Errno) -> Option<Self> {
        Some(match errno {
            Errno::MFILE => Self::FileDescriptors,
            Errno::NFILE => Self::FileTable,
            Errno::ADDRNOTAVAIL => Self::LocalPorts,
            Errno::NOBUFS => Self::SocketBuffers,
            _ => return None,
        })
    }

    /// A short stable name, fit for a metric label and for the summary.
    pub fn name(self) -> &'static str {
        match self {
            Self::FileDescriptors => "out of file descriptors (EMFILE)",
            Self::FileTable => "system file table full (ENFILE)",
            Self::LocalPorts => "out of local ports (EADDRNOTAVAIL)",
            Self::SocketBuffers => "out of socket buffers (ENOBUFS)",
            Self::DnsSockets => "DNS socket pool exhausted",
        }
    }
}

impl fmt::Display for LocalResource {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{LOCAL_RESOURCE_TAG}{}", self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn os_errors_of_this_machine_are_local_and_others_are_not() {
        let io = |errno: Errno| io::Error::from_raw_os_error(errno.raw_os_error());
        assert_eq!(
            LocalResource::from_io(&io(Errno::MFILE)),
            Some(LocalResource::FileDescriptors)
        );
        assert_eq!(
            LocalResource::from_io(&io(Errno::ADDRNOTAVAIL)),
            Some(LocalResource::LocalPorts)
        );
        assert_eq!(LocalResource::from_io(&io(Errno::CONNREFUSED)), None);
        assert_eq!(
            LocalResource::from_io(&io::Error::other("too many open files")),
            None,
            "text is not a cause"
        );
    }
}
