//! The closed vocabularies of the survey's checks, the discovery audit and the deep probe, as
//! the record keeps them. The crawler judges in these types; the text forms are the JSON and
//! ClickHouse values.

record_enum!(
    /// Which checks ran on the site: the survey alone, or the deep probe as well.
    ProbeDepth {
        Survey => "survey",
        Deep => "deep",
    }
);

record_enum!(
    /// The discovery audit's source: the first of four places that named an MCP server, in
    /// the audit's order (the catalog first, unlike the endpoint order of [`crate::DiscoveredVia`]).
    DiscoverySource {
        /// An entry in `/.well-known/ai-catalog.json`.
        AiCatalog => "ai_catalog",
        /// `/.well-known/mcp/server-card.json`.
        ServerCard => "server_card",
        /// `<endpoint>/server-card`.
        EndpointServerCard => "endpoint_server_card",
        /// `/.well-known/mcp.json`: legacy, reported and never recommended.
        McpJson => "mcp_json",
    }
);

record_enum!(
    /// One kind of evidence of an API or agent surface on the site (the population the survey's
    /// MCP check is asked of), in a fixed order; a record lists each it saw once, in this order.
    /// Append only: the stored form numbers the values in this order.
    SurfaceSignal {
        /// Today's MCP evidence: an MCP card served and parsed (at a card path, listed in a
        /// catalog, or at `<endpoint>/server-card`), an `mcp`/`mcp-server` Link relation, a
        /// `/mcp` signal, or a 401 on `/mcp`.
        Mcp => "mcp",
        /// `/.well-known/ai-catalog.json` served and parsed, or an `ai-catalog` Link relation.
        AiCatalog => "ai_catalog",
        /// RFC 9727: `/.well-known/api-catalog` served as a Linkset or another JSON document,
        /// or an `api-catalog` Link relation on the homepage.
        ApiCatalog => "api_catalog",
        /// RFC 8631: a `service-desc` Link relation on the homepage.
        ServiceDesc => "service_desc",
        /// RFC 8631: a `service-doc` Link relation on the homepage.
        ServiceDoc => "service_doc",
        /// The OpenAPI (or Swagger) document a `service-desc` link names on the measured site,
        /// served with an `openapi` or `swagger` key.
        Openapi => "openapi",
        /// An A2A agent card at `/.well-known/agent-card.json` with a `name` and a `url`,
        /// `supportedInterfaces` or `skills`.
        A2aAgentCard => "a2a_agent_card",
        /// RFC 9728: `/.well-known/oauth-protected-resource` with a `resource`.
        OauthProtectedResource => "oauth_protected_resource",
        /// RFC 8414: `/.well-known/oauth-authorization-server` with an `issuer`.
        OauthAuthorizationServer => "oauth_authorization_server",
    }
);

record_enum!(
    /// A deprecated feature the deep probe saw, in its fixed order.
    DeprecatedFeature {
        Sse => "sse",
        InitializeOnly => "initialize_only",
        Sessions => "sessions",
        Roots => "roots",
        Sampling => "sampling",
        Logging => "logging",
        DynamicClientRegistration => "dynamic_client_registration",
    }
);

record_enum!(
    /// Where the server stands on the move to the current protocol revision.
    MigrationStatus {
        Ready => "ready",
        ToMigrate => "to_migrate",
        NotProbeable => "not_probeable",
    }
);

record_enum!(
    /// One step of the deep probe's migration checklist.
    ChecklistStep {
        ServeHttps => "serve_https",
        MoveToStreamableHttp => "move_to_streamable_http",
        ImplementServerDiscover => "implement_server_discover",
        DropSessions => "drop_sessions",
        DropRoots => "drop_roots",
        DropSampling => "drop_sampling",
        DropLogging => "drop_logging",
        OfferCimd => "offer_cimd",
        RerunScan => "rerun_scan",
        NothingToMigrate => "nothing_to_migrate",
    }
);

record_enum!(
    /// How much a finding matters. `Reported` is "reported, not scored": counted for research,
    /// never held against the site.
    Severity {
        High => "high",
        Medium => "medium",
        Low => "low",
        Info => "info",
        Reported => "reported",
    }
);

record_enum!(
    /// Why a request got no usable answer, or what kind of reason a verdict gives: a closed
    /// kind set only by the crawler's own code (the network layer from the OS error number and
    /// the fetch's typed error, the scan from its phase), never read back from text. Reports,
    /// metrics and the run's retry of local-resource failures decide on this, not on wording.
    FailureKind {
        /// The host did not resolve (NXDOMAIN, SERVFAIL, no address, no DNS answer in time).
        Dns => "dns",
        /// The address guard refused every address (private, loopback, metadata, ...).
        Guard => "guard",
        /// The host, or an address range, is on an opt-out list: nothing was requested.
        OptedOut => "opted_out",
        /// The site's robots.txt disallows the request: it was not sent.
        Robots => "robots",
        /// No TCP connection (refused, unreachable, reset while connecting).
        Connect => "connect",
        /// The TLS handshake failed.
        Tls => "tls",
        /// A request's own wait ran out (connect, TLS, head or body).
        Timeout => "timeout",
        /// The site deadline passed before the scan finished.
        Deadline => "deadline",
        /// The connection was closed or reset mid-answer.
        Reset => "reset",
        /// The peer broke HTTP (an unparsable head, bad framing, an HTTP/2 error).
        Protocol => "protocol",
        /// The answer was larger than its byte cap; only the first bytes were read.
        BodyCap => "body_cap",
        /// The URL cannot be fetched (not http/https, no host, not https where required).
        InvalidUrl => "invalid_url",
        /// A URL the server named broke a safety rule (another site, a bad port, an IP
        /// literal, a host past the per-site limit): it was not requested.
        Refused => "refused",
        /// This machine ran out of something (file descriptors, ports, socket buffers, DNS
        /// sockets): says nothing about the site; the run retries it, never records it.
        LocalResource => "local_resource",
        /// The server answered, but not usably: an error status, a JSON-RPC error, HTML or
        /// no JSON-RPC answer where one was required.
        Answer => "answer",
        /// The answer was a redirect the rules do not follow.
        Redirect => "redirect",
        /// Discovery found no endpoint the scan opens (no document named one, no `/mcp`
        /// signal).
        NoEndpoint => "no_endpoint",
        /// The input line is not a site the crawler scans.
        Input => "input",
        /// The run stopped (shutdown, --max-duration) before the site was scanned.
        Interrupted => "interrupted",
        /// The crawler itself failed on this site (a panic): a bug, not the site's doing.
        Internal => "internal",
        /// The server refused the survey's protocol version and named only newer revisions
        /// (a 2026-07-28-only server): not a defect. Last, so older stores keep their values.
        NewerRevisionOnly => "newer_revision_only",
        /// The server answered with a 5xx where the survey reads a document that decides the
        /// verdict (`/mcp`'s GET, robots.txt): "not now", never "no" (docs/rules.md).
        ServerError => "server_error",
        /// The server answered 429 (too many requests) there: "not now" as well.
        RateLimited => "rate_limited",
        /// A registry entry's remote URL holds unexpanded `{...}` placeholders (`{PORT}`,
        /// `{HOST}`): a template the client fills in, never requested.
        Template => "template",
    }
);
