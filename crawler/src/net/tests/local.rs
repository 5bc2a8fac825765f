//! A connect that fails because this process is out of file descriptors is typed as a local
//! resource failure (by errno), not as a site that cannot be reached. The descriptors are
//! exhausted in a child process (this test binary run again), so no other test is starved.

use std::collections::HashMap;
use std::net::IpAddr;

use url::Url;

use crate::net::{ConnectFailure, FetchError, FetchRequest, LocalResource, Net, NetOptions};

const CHILD: &str = "MCPCENSUS_TEST_EMFILE_CHILD";
const NAME: &str = "net::tests::local::a_connect_out_of_descriptors_is_a_local_failure";

#[test]
fn a_connect_out_of_descriptors_is_a_local_failure() {
    if std::env::var_os(CHILD).is_some() {
        return in_child();
    }
    crate::testkit::pass_in_child(NAME, CHILD);
}

fn in_child() {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("runtime");
    let localhost = IpAddr::from([127, 0, 0, 1]);
    let net = Net::new(NetOptions {
        static_hosts: HashMap::from([("site.test".to_owned(), vec![localhost])]),
        allow_nets: vec!["127.0.0.0/8".parse().expect("net")],
        nameservers: vec!["127.0.0.1:9".parse().expect("addr")],
        ..NetOptions::default()
    })
    .expect("net");
    let site = net.site_client();
    let target = Url::parse("http://site.test:9/").expect("url");
    // A small limit, then every descriptor under it taken: the connector's socket() fails.
    use rustix::process::{getrlimit, setrlimit, Resource, Rlimit};
    let limit = Rlimit {
        current: Some(256),
        maximum: getrlimit(Resource::Nofile).maximum,
    };
    setrlimit(Resource::Nofile, limit).expect("setrlimit");
    let mut held = Vec::new();
    while let Ok(file) = std::fs::File::open("/dev/null") {
        held.push(file);
        assert!(held.len() <= 256, "the limit did not hold");
    }
    let err = runtime
        .block_on(site.fetch(FetchRequest::get(target)))
        .expect_err("no descriptor to connect with");
    drop(held);
    assert!(
        matches!(
            err,
            FetchError::Connect {
                failure: ConnectFailure::Local(LocalResource::FileDescriptors),
                ..
            }
        ),
        "{err:?}"
    );
    assert_eq!(err.local_resource(), Some(LocalResource::FileDescriptors));
    assert_eq!(
        err.failure_kind(),
        mcpcensus_store::FailureKind::LocalResource
    );
    // The typed flag the run's retry reads, set by the client from the OS error number.
    assert_eq!(site.local_failure(), Some(LocalResource::FileDescriptors));
    assert!(err
        .to_string()
        .contains("local resource: out of file descriptors"));
}

/// The DNS socket failing with a local errno, or hickory finding no socket at all, is this
/// machine's failure; the same failure with another errno stays a DNS error of the name.
#[test]
fn dns_transport_failures_of_this_machine_are_local() {
    use hickory_resolver::net::NetError;
    use std::sync::Arc;

    use crate::net::resolver::classify;
    use crate::net::ResolveError;

    let io = |errno: rustix::io::Errno| {
        NetError::Io(Arc::new(std::io::Error::from_raw_os_error(
            errno.raw_os_error(),
        )))
    };
    assert_eq!(
        classify(&io(rustix::io::Errno::NFILE)),
        ResolveError::Local(LocalResource::FileTable)
    );
    assert_eq!(
        classify(&io(rustix::io::Errno::NOBUFS)),
        ResolveError::Local(LocalResource::SocketBuffers)
    );
    assert_eq!(
        classify(&NetError::NoConnections),
        ResolveError::Local(LocalResource::DnsSockets)
    );
    assert!(matches!(
        classify(&io(rustix::io::Errno::CONNREFUSED)),
        ResolveError::Other(_)
    ));
}
