package dev.noneops.cli;

import java.io.File;
import java.io.IOException;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.codegen.docgen.manpage.ManPageGenerator;

/**
 * Writes the AsciiDoc source of a man page per command ({@code noneops.adoc}, {@code
 * noneops-status.adoc}, ...) from the command model, with picocli-codegen's {@link
 * ManPageGenerator}; the build turns them into {@code man1} pages and packs them into the CLI
 * jar, and a bootstrap installs them with the agent. Run by the build only (picocli-codegen is
 * not in the jar); hidden commands get no page.
 */
public final class ManPageSources {
  private ManPageSources() {}

  /** {@code args[0]}: the directory to write the sources into. */
  public static void main(String[] args) throws IOException {
    if (args.length != 1) {
      throw new IllegalArgumentException("usage: ManPageSources OUTPUT_DIR");
    }
    CliEnvironment model = new CliEnvironment(
        () -> {
          throw new IOException("the man pages are made from the command model alone");
        },
        () -> false,
        BuildVersionProvider.buildVersion());
    CommandLine cli = NoneopsCli.commandLine(model);
    CommandSpec root = cli.getCommandSpec();
    cli.getSubcommands().values().stream()
        .filter(sub -> sub.getCommandSpec().usageMessage().hidden())
        .map(CommandLine::getCommandName)
        .toList()
        .forEach(root::removeSubcommand);
    File out = new File(args[0]);
    int code = ManPageGenerator.generateManPage(out, null, new boolean[0], true, root);
    if (code != 0) {
      throw new IOException("picocli's man page generator failed with exit code " + code);
    }
  }
}
