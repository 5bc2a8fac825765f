mod messages;
mod props;
mod sniff;
