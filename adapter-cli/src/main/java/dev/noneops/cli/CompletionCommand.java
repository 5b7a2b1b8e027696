package dev.noneops.cli;

import java.io.PrintWriter;
import picocli.AutoComplete;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code noneops completion}: the bash or zsh completion script of the whole command line, as
 * picocli generates it. A script has no JSON form, so {@code --json} is a usage error (with its
 * document) rather than a script where a JSON reader waits for a document.
 */
@Command(
    name = "completion",
    header = "Print a bash or zsh completion script",
    description = "Load it into the current shell with: source <(noneops completion)",
    footerHeading = "%nExamples:%n",
    footer = {
      "  source <(noneops completion)",
      "  noneops completion > /etc/bash_completion.d/noneops"
    })
final class CompletionCommand implements Runnable {
  @Spec
  CommandSpec spec;

  @Override
  public void run() {
    if (spec.root().userObject() instanceof NoneopsCommand root && root.json) {
      throw new ParameterException(
          spec.commandLine(),
          "completion prints a shell script, which has no --json form; run it without --json");
    }
    PrintWriter out = spec.commandLine().getOut();
    out.print(AutoComplete.bash(spec.root().name(), spec.root().commandLine()));
    out.print('\n');
    out.flush();
  }
}
