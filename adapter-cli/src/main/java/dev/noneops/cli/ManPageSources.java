package dev.noneops.cli;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.codegen.docgen.manpage.ManPageGenerator;

/**
 * Writes the AsciiDoc source of a man page per command ({@code noneops.adoc}, {@code
 * noneops-status.adoc}, ...) from the command model, with picocli-codegen's {@link
 * ManPageGenerator}, completed by {@link ManPageSections} (EXIT STATUS, FILES, ENVIRONMENT, SEE
 * ALSO); the build turns them into {@code man1} pages, packs them into the CLI jar (a bootstrap
 * installs them with the agent) and leaves them in {@code target/man/man1} for a package. Run by the build only (picocli-codegen is
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
    List<String> commands = List.copyOf(root.subcommands().keySet());
    complete(out.toPath().resolve("noneops.adoc"), "noneops", commands);
    for (String command : commands) {
      complete(out.toPath().resolve("noneops-" + command + ".adoc"), command, commands);
    }
  }

  private static void complete(Path page, String command, List<String> commands)
      throws IOException {
    String text = Files.readString(page, StandardCharsets.UTF_8);
    Files.writeString(
        page, ManPageSections.complete(text, command, commands), StandardCharsets.UTF_8);
  }
}
