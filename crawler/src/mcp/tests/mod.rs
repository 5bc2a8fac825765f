mod challenge;
mod messages;
mod props;
mod sniff;
