package dev.noneops.cli;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import picocli.CommandLine;
import picocli.CommandLine.Help;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Model.PositionalParamSpec;
import picocli.CommandLine.Model.UsageMessageSpec;

/**
 * The Markdown reference of every command ({@code docs/reference/commands.md}), rendered from the
 * same command model as {@code --help} and the man pages: for the root and each command that is
 * not hidden, its header, synopsis, description, parameters, options and footer; the exit codes
 * once. Hidden commands and options are left out, as they are from the man pages.
 */
final class CommandsReference {
  /** The width the synopses are wrapped at, whatever the terminal. */
  private static final int WIDTH = 100;

  private CommandsReference() {}

  static String markdown(CommandLine root) {
    StringBuilder md = new StringBuilder();
    md.append("# Commands\n\n")
        .append("<!-- Generated from the command model by CommandsReferenceTest (adapter-cli);")
        .append(" do not edit. -->\n\n")
        .append("Every command's synopsis, options and description, as `noneops <command> --help`")
        .append(
            " prints them. How the commands behave, with real outputs, is in [the CLI](cli.md).\n\n");
    List<CommandLine> commands = new ArrayList<>();
    commands.add(root);
    root.getSubcommands().values().stream()
        .filter(sub -> !sub.getCommandSpec().usageMessage().hidden())
        .forEach(commands::add);
    for (CommandLine command : commands) {
      md.append("- [`")
          .append(command.getCommandSpec().qualifiedName())
          .append("`](#")
          .append(anchor(command.getCommandSpec().qualifiedName()))
          .append(")\n");
    }
    md.append('\n');
    for (CommandLine command : commands) {
      command(md, command.getCommandSpec());
    }
    md.append("## Exit codes\n\n| code | meaning |\n|---:|---|\n");
    for (Map.Entry<String, String> e :
        root.getCommandSpec().usageMessage().exitCodeList().entrySet()) {
      md.append("| ")
          .append(e.getKey().strip())
          .append(" | ")
          .append(cell(e.getValue()))
          .append(" |\n");
    }
    return md.toString();
  }

  private static void command(StringBuilder md, CommandSpec spec) {
    UsageMessageSpec usage = spec.usageMessage();
    usage.autoWidth(false).width(WIDTH);
    Help help = new Help(spec, Help.defaultColorScheme(Help.Ansi.OFF));
    md.append("## ").append(spec.qualifiedName()).append("\n\n");
    String header = text(usage.header());
    if (!header.isEmpty()) {
      md.append(header).append("\n\n");
    }
    md.append("```text\n").append(help.synopsis(0).stripTrailing()).append("\n```\n\n");
    String description = text(usage.description());
    if (!description.isEmpty()) {
      md.append(description).append("\n\n");
    }
    List<PositionalParamSpec> parameters =
        spec.positionalParameters().stream().filter(p -> !p.hidden()).toList();
    if (!parameters.isEmpty()) {
      md.append("| parameter | description |\n|---|---|\n");
      for (PositionalParamSpec p : parameters) {
        md.append("| `")
            .append(p.paramLabel())
            .append("` | ")
            .append(cell(description(p)))
            .append(" |\n");
      }
      md.append('\n');
    }
    List<OptionSpec> options = spec.options().stream().filter(o -> !o.hidden()).toList();
    if (!options.isEmpty()) {
      md.append("| option | description |\n|---|---|\n");
      for (OptionSpec o : options) {
        String names = String.join(", ", o.names());
        if (o.arity().max() > 0) {
          names += "=" + o.paramLabel();
        }
        md.append("| `")
            .append(names)
            .append("` | ")
            .append(cell(description(o)))
            .append(" |\n");
      }
      md.append('\n');
    }
    if (spec.subcommands().values().stream()
        .anyMatch(sub -> !sub.getCommandSpec().usageMessage().hidden())) {
      md.append("| command | does |\n|---|---|\n");
      spec.subcommands().forEach((name, sub) -> {
        if (!sub.getCommandSpec().usageMessage().hidden()) {
          md.append("| [`")
              .append(name)
              .append("`](#")
              .append(anchor(sub.getCommandSpec().qualifiedName()))
              .append(") | ")
              .append(cell(text(sub.getCommandSpec().usageMessage().header())))
              .append(" |\n");
        }
      });
      md.append('\n');
    }
    if (usage.footer().length > 0) {
      String heading = String.format(Locale.ROOT, usage.footerHeading()).strip();
      if (!heading.isEmpty()) {
        md.append(heading).append("\n\n");
      }
      md.append("```text\n");
      for (String line : usage.footer()) {
        md.append(String.format(Locale.ROOT, line).stripTrailing()).append('\n');
      }
      md.append("```\n\n");
    }
  }

  /** An argument's description with its variables ({@code ${DEFAULT-VALUE}}, ...) rendered. */
  private static String description(ArgSpec arg) {
    return text(arg.renderedDescription());
  }

  /** picocli's lines of text (format strings) as one paragraph each, blank-line separated. */
  private static String text(String[] lines) {
    List<String> out = new ArrayList<>();
    for (String line : lines) {
      String formatted = String.format(Locale.ROOT, line).strip();
      if (!formatted.isEmpty()) {
        out.add(formatted);
      }
    }
    return String.join("\n\n", out);
  }

  private static String cell(String text) {
    return text.replace("|", "\\|").replace("\n\n", "<br>").replace('\n', ' ');
  }

  /** The anchor a Markdown renderer gives a heading of {@code text}. */
  static String anchor(String text) {
    return text.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9 _-]", "").replace(' ', '-');
  }
}
