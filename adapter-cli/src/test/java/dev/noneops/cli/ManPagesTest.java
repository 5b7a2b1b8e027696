package dev.noneops.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.noneops.core.layout.Layout;
import dev.noneops.core.layout.NodeConstants;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Model.OptionSpec;

/** The build makes a man page per command from the command model and packs it into the jar. */
class ManPagesTest {
  private final CommandLine cli = NoneopsCli.commandLine(CliRun.NO_HOST);

  @Test
  void everyCommandHasAPageNamedForItThatListsEachOfItsOptions() throws IOException {
    List<CommandLine> commands = cli.getSubcommands().values().stream()
        .filter(sub -> !sub.getCommandSpec().usageMessage().hidden())
        .toList();
    assertThat(commands).hasSizeGreaterThan(15);
    for (CommandLine command : commands) {
      String name = "noneops-" + command.getCommandName();
      String page = page(name + ".1");
      assertThat(page)
          .as(name)
          .contains(".TH \"" + troff(name.toUpperCase(Locale.ROOT)) + "\" \"1\"")
          .contains(".SH \"SYNOPSIS\"");
      for (OptionSpec option : command.getCommandSpec().options()) {
        assertThat(page)
            .as(name + " " + option.longestName())
            .contains(troff(option.longestName()));
      }
    }
  }

  @Test
  void theRootPageListsTheCommands() throws IOException {
    assertThat(page("noneops.1")).contains("bootstrap", "upgrade", "status", "reset");
  }

  @Test
  void everyPageHasTheSectionsOfAManPageWithHeadingsWithoutColons() throws IOException {
    for (String file : pages()) {
      String page = page(file);
      List<String> headings = page.lines().filter(l -> l.startsWith(".SH ")).toList();
      assertThat(headings)
          .as(file)
          .containsSubsequence(
              ".SH \"NAME\"",
              ".SH \"SYNOPSIS\"",
              ".SH \"DESCRIPTION\"",
              ".SH \"OPTIONS\"",
              ".SH \"EXIT STATUS\"",
              ".SH \"FILES\"",
              ".SH \"ENVIRONMENT\"",
              ".SH \"SEE ALSO\"");
      assertThat(headings).as(file).noneMatch(h -> h.endsWith(":\""));
      assertThat(page)
          .as(file)
          .contains(troff(NodeConstants.DEFAULT_CONFIG_PATH))
          .contains(troff(Layout.DEFAULT_ROOT))
          .contains(troff("/etc/systemd/system/kubelet.service"))
          .contains(troff("/etc/systemd/system/noneops-agent.service"))
          .contains("TERM")
          .contains(troff("DBUS_SYSTEM_BUS_ADDRESS"))
          .contains("systemctl")
          .contains("journalctl")
          .contains("kubelet");
    }
    assertThat(section(page("noneops.1"), "EXIT STATUS"))
        .as("the root's page has the whole table")
        .contains("must run as root")
        .contains("no node is installed");
    assertThat(section(page("noneops-status.1"), "EXIT STATUS"))
        .as("a subcommand's page points at the root's")
        .contains("noneops")
        .doesNotContain("must run as root");
    assertThat(section(page("noneops-status.1"), "SEE ALSO")).contains("noneops");
  }

  @Test
  void theBuildLeavesThePagesInADirectoryAPackageInstallsFrom() throws IOException {
    Path dir = Path.of("target", "man", "man1");
    assertThat(dir).as("the build's man pages, to install").isDirectory();
    try (Stream<Path> files = Files.list(dir)) {
      assertThat(files.map(f -> f.getFileName().toString()).sorted().toList()).isEqualTo(pages());
    }
  }

  @Test
  void everyPageRendersWithoutAWarning() throws Exception {
    Assumptions.assumeTrue(
        Files.isExecutable(Path.of("/usr/bin/groff")), "groff renders the pages");
    for (String file : pages()) {
      Path copy = Files.createTempFile("noneops-man", ".1");
      try {
        Files.writeString(copy, page(file), StandardCharsets.UTF_8);
        Process groff = new ProcessBuilder("groff", "-man", "-Tutf8", "-ww", "-z", copy.toString())
            .redirectOutput(ProcessBuilder.Redirect.DISCARD)
            .start();
        String warnings = new String(groff.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(groff.waitFor()).as(file + ": " + warnings).isZero();
        assertThat(warnings).as(file).isEmpty();
      } finally {
        Files.delete(copy);
      }
    }
  }

  /** The page of each command but the hidden ones, and the root's. */
  private List<String> pages() {
    List<String> pages = new ArrayList<>();
    pages.add("noneops.1");
    cli.getSubcommands().values().stream()
        .filter(sub -> !sub.getCommandSpec().usageMessage().hidden())
        .forEach(sub -> pages.add("noneops-" + sub.getCommandName() + ".1"));
    pages.sort(null);
    return pages;
  }

  /** The text of a page's section {@code name}, up to the next one. */
  private static String section(String page, String name) {
    String from = page.substring(page.indexOf(".SH \"" + name + "\""));
    int next = from.indexOf("\n.SH ", 1);
    return next < 0 ? from : from.substring(0, next);
  }

  @Test
  void aHiddenCommandHasNoPage() {
    assertThat(getClass().getResource("/man/man1/noneops-" + CdsTrainingCommand.NAME + ".1"))
        .isNull();
  }

  private String page(String file) throws IOException {
    try (InputStream in = getClass().getResourceAsStream("/man/man1/" + file)) {
      assertThat(in).as("man page " + file + " in the jar's man/man1").isNotNull();
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }

  /** How the page writes a word: troff escapes each hyphen. */
  private static String troff(String text) {
    return text.replace("-", "\\-");
  }
}
