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
