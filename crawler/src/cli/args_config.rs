//! The flags applied on top of the configuration file: the one place a flag becomes a
//! setting (declarations in `args.rs`; the file and its defaults in `config/`).

use super::args::{CheckArgs, CrawlArgs, ScanArgs};
use crate::config::Config;

impl ScanArgs {
    /// Config file (or defaults) with these flags applied on top.
    pub fn load_config(&self) -> Result<Config, crate::ConfigError> {
        let mut config = match &self.config {
            Some(path) => Config::from_file(path)?,
            None => Config::default(),
        };
        self.apply(&mut config);
        Ok(config)
    }

    fn apply(&self, c: &mut Config) {
        set(&mut c.crawl.concurrency, self.concurrency);
        set(&mut c.net.per_host_rps, self.per_host_rps);
        set(&mut c.net.per_host_burst, self.per_host_burst);
        set(&mut c.net.per_ip_rps, self.per_ip_rps);
        set(&mut c.net.per_ip_connections, self.per_ip_connections);
        set(&mut c.crawl.site_deadline_secs, self.site_deadline);
        set(&mut c.net.user_agent, self.user_agent.clone());
        set(&mut c.crawl.probe, self.probe);
        if self.readiness {
            c.crawl.readiness = true;
        }
        set(&mut c.net.robots, self.robots);
        set(&mut c.net.http, self.http);
        if self.contact.is_some() {
            c.net.contact.clone_from(&self.contact);
        }
        replace_list(&mut c.net.exclude_net, &self.exclude_net);
        set(&mut c.output.log_format, self.log_format);
        replace_list(&mut c.net.resolvers, &self.resolvers);
        replace_list(&mut c.net.ca_files, &self.ca_files);
        replace_list(&mut c.net.allow_net, &self.allow_net);
        replace_list(&mut c.input.exclude, &self.exclude);
        c.output.quiet |= self.quiet;
    }
}

impl CheckArgs {
    pub fn load_config(&self) -> Result<Config, crate::ConfigError> {
        let c = self.scan.load_config()?;
        c.validate()?;
        Ok(c)
    }
}

impl CrawlArgs {
    pub fn load_config(&self) -> Result<Config, crate::ConfigError> {
        let mut c = self.scan.load_config()?;
        set(&mut c.crawl.out, self.out.clone());
        set(
            &mut c.crawl.max_duration,
            self.max_duration.clone().map(Some),
        );
        set(
            &mut c.crawl.second_look_delay,
            self.second_look_delay.clone(),
        );
        if self.no_second_look {
            c.crawl.second_look = false;
        }
        set(&mut c.input.shard, self.shard);
        set(&mut c.input.host_column, self.host_column.clone().map(Some));
        set(&mut c.input.rank_column, self.rank_column.clone().map(Some));
        set(&mut c.clickhouse.url, self.clickhouse.clone().map(Some));
        set(&mut c.clickhouse.database, self.database.clone());
        set(
            &mut c.clickhouse.ca_file,
            self.clickhouse_ca_file.clone().map(Some),
        );
        c.validate()?;
        Ok(c)
    }
}

fn set<T>(slot: &mut T, value: Option<T>) {
    if let Some(v) = value {
        *slot = v;
    }
}

/// Repeatable flags replace the file's list, so a flag never silently merges with it.
fn replace_list<T: Clone>(slot: &mut Vec<T>, values: &[T]) {
    if !values.is_empty() {
        *slot = values.to_vec();
    }
}
