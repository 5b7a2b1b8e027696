package dev.noneops.core.node.internal.render;

import dev.noneops.core.layout.HostPaths;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Renders {@link UnitFile}s to the bytes written on disk. The first line is always
 * {@link HostPaths#UNIT_MARKER}, by which this node recognises its own units; every value is
 * escaped by {@link SystemdSyntax} according to its kind. A command line longer than
 * {@value #MAX_LINE} characters puts one argument per continuation line, for readability.
 */
public final class UnitFileWriter {
  public static final int MAX_LINE = 100;
  private static final Pattern UNSAFE_SPLIT_ARG = Pattern.compile("[\\s\"'\\\\]");

  private UnitFileWriter() {}

  public static byte[] render(UnitFile unit) {
    return renderString(unit).getBytes(StandardCharsets.UTF_8);
  }

  public static String renderString(UnitFile unit) {
    StringBuilder out = new StringBuilder();
    out.append(HostPaths.UNIT_MARKER).append('\n');
    for (UnitFile.Section section : unit.sections()) {
      out.append('\n').append('[').append(section.name()).append("]\n");
      for (UnitFile.Setting setting : section.settings()) {
        out.append(setting.key()).append('=').append(value(setting.value())).append('\n');
      }
    }
    return out.toString();
  }

  private static String value(UnitFile.Value value) {
    if (value instanceof UnitFile.Plain plain) {
      return SystemdSyntax.plainValue(plain.text());
    }
    if (value instanceof UnitFile.Env env) {
      return SystemdSyntax.environment(env.name(), env.value());
    }
    if (value instanceof UnitFile.EnvArgs envArgs) {
      for (String arg : envArgs.args()) {
        if (arg.isEmpty() || UNSAFE_SPLIT_ARG.matcher(arg).find()) {
          throw new IllegalArgumentException("argument for $" + envArgs.name()
              + " must be non-empty without whitespace, quotes or backslashes: '" + arg + "'");
        }
      }
      return SystemdSyntax.environment(envArgs.name(), String.join(" ", envArgs.args()));
    }
    UnitFile.Command command = ((UnitFile.Exec) value).command();
    List<String> words = new ArrayList<>();
    words.add(command.prefix() + SystemdSyntax.execProgram(command.program()));
    for (UnitFile.Arg arg : command.args()) {
      words.add(
          arg instanceof UnitFile.Literal literal
              ? SystemdSyntax.execArg(literal.text())
              : SystemdSyntax.execVariable(((UnitFile.Variable) arg).name()));
    }
    String line = String.join(" ", words);
    return line.length() > MAX_LINE ? String.join(" \\\n    ", words) : line;
  }
}
