mod messages;
mod sniff;
