//! What a shell and `man` read about the command line, generated from the one parser
//! definition so they never fall behind it: `mcpcensus completions SHELL` and `mcpcensus man`.

use std::io::Write;
use std::process::ExitCode;

use clap::CommandFactory;
use clap_complete::Shell;

use super::args::Cli;

/// The binary's name as a shell completes it and `man` lists it.
const NAME: &str = "mcpcensus";

/// Writes `shell`'s completion script for every command and flag.
pub fn write_completions(shell: Shell, out: &mut dyn Write) {
    clap_complete::generate(shell, &mut Cli::command(), NAME, out);
}

/// Writes the manual page (section 1, roff): the synopsis, every command and its flags.
pub fn write_man(out: &mut dyn Write) -> std::io::Result<()> {
    let cli = Cli::command();
    let man = clap_mangen::Man::new(cli.clone());
    man.render_title(out)?;
    man.render_name_section(out)?;
    man.render_synopsis_section(out)?;
    man.render_description_section(out)?;
    man.render_options_section(out)?;
    man.render_subcommands_section(out)?;
    // Each command's own flags, as `mcpcensus COMMAND --help` shows them.
    for sub in cli.get_subcommands() {
        let page =
            clap_mangen::Man::new(sub.clone().bin_name(format!("{NAME} {}", sub.get_name())));
        writeln!(
            out,
            ".SH \"{} {}\"",
            NAME.to_uppercase(),
            sub.get_name().to_uppercase()
        )?;
        page.render_synopsis_section(out)?;
        page.render_options_section(out)?;
    }
    man.render_version_section(out)?;
    Ok(())
}

pub fn completions(shell: Shell) -> anyhow::Result<ExitCode> {
    let mut out = std::io::stdout().lock();
    write_completions(shell, &mut out);
    out.flush()?;
    Ok(ExitCode::SUCCESS)
}

pub fn man() -> anyhow::Result<ExitCode> {
    let mut out = std::io::stdout().lock();
    write_man(&mut out)?;
    out.flush()?;
    Ok(ExitCode::SUCCESS)
}
