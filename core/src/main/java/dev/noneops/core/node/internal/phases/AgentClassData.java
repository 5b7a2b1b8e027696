package dev.noneops.core.node.internal.phases;

import dev.noneops.core.node.AgentSetup;
import dev.noneops.core.node.NodeException;
import dev.noneops.core.node.internal.files.SharedFileWriter;
import dev.noneops.core.node.internal.version.LayoutTrees;
import dev.noneops.ports.commands.Command;
import dev.noneops.ports.commands.CommandResult;
import dev.noneops.ports.files.HostFiles;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The installed agent build's class-data sharing archive ({@code lib/noneops.jsa} beside its jar),
 * which its launcher names so that every {@code noneops} command on the node starts from
 * pre-parsed classes (about a third of a short command's start-up). Made on the host, for the
 * installed jar's path and the agent's own java, as {@code bin/noneops} makes its own: a training
 * run lists the classes the commands load, and a static dump ({@code -Xshare:dump}) archives them.
 * Both write below the layout's staging directory (which teardown removes whole); the archive is
 * then written into place through the ownership record, so a reset removes it with the build.
 *
 * <p>The JVM ignores an archive that does not match its jar or its own build, silently and without
 * harm, so an archive is an optimisation only: one that cannot be made is a warning, never a
 * failed install. An archive already in place is kept while the JVM still maps it ({@code
 * -Xshare:on} fails otherwise, after a JDK update for instance), and made again when it does not.
 */
public final class AgentClassData {
  /** The archive's file name, in the build's {@code lib} beside {@code noneops.jar}. */
  public static final String ARCHIVE = "noneops.jsa";

  private static final String TRAINING_COMMAND = "cds-training";
  private static final Duration TRAINING_TIMEOUT = Duration.ofMinutes(2);
  private static final int MODE = 0644;
  private static final int SCRATCH_MODE = 0700;

  private final PhaseContext node;
  private final SharedFileWriter writer;

  public AgentClassData(PhaseContext node, SharedFileWriter writer) {
    this.node = node;
    this.writer = writer;
  }

  /** Where the archive of the build whose jar is {@code jar} lives. */
  public static Path archiveOf(Path jar) {
    return jar.resolveSibling(ARCHIVE);
  }

  /** Makes the archive of {@code agent}'s installed {@code jar} unless a usable one is there. */
  public void ensure(AgentSetup agent, Path jar) throws IOException {
    Path archive = archiveOf(jar);
    HostFiles files = node.ports().files();
    if (writer.record().owns(archive) && files.exists(archive) && maps(agent, jar, archive)) {
      return;
    }
    Path scratch = node.layout().staging().resolve("agent-class-data");
    try {
      LayoutTrees.remove(files, scratch);
      files.createDirectories(scratch, SCRATCH_MODE);
      Path classes = scratch.resolve("classes.lst");
      Path dumped = scratch.resolve(ARCHIVE);
      run(
          agent,
          "list the classes its commands load",
          "-XX:DumpLoadedClassList=" + classes,
          "-jar",
          jar.toString(),
          TRAINING_COMMAND);
      run(
          agent,
          "dump those classes",
          "-Xshare:dump",
          "-XX:SharedClassListFile=" + classes,
          "-XX:SharedArchiveFile=" + dumped,
          "-cp",
          jar.toString());
      writer.write(archive, files.read(dumped), MODE);
    } catch (IOException | NodeException e) {
      node.params()
          .log()
          .atWarn()
          .addKeyValue("archive", archive)
          .log(
              "the agent's class-data archive was not made ({}); its commands start without it,"
                  + " slower",
              e.getMessage());
    } finally {
      removeScratch(files, scratch);
    }
  }

  /** Removes the scratch directory; one left behind goes with the staging directory later. */
  private void removeScratch(HostFiles files, Path scratch) {
    try {
      LayoutTrees.remove(files, scratch);
    } catch (IOException e) {
      node.params()
          .log()
          .atWarn()
          .addKeyValue("path", scratch)
          .log("could not remove the class-data scratch directory: {}", e.getMessage());
    }
  }

  /** Whether the agent's JVM maps {@code archive} for {@code jar} ({@code -Xshare:on} refuses otherwise). */
  private boolean maps(AgentSetup agent, Path jar, Path archive) throws IOException {
    List<String> argv = argv(
        agent, "-Xshare:on", "-XX:SharedArchiveFile=" + archive, "-jar", jar.toString(), "version");
    CommandResult result =
        node.ports().commands().run(Command.of(TRAINING_TIMEOUT, argv.toArray(String[]::new)));
    return result.succeeded();
  }

  private void run(AgentSetup agent, String purpose, String... arguments) throws IOException {
    node.commands()
        .require(purpose, TRAINING_TIMEOUT, argv(agent, arguments).toArray(String[]::new));
  }

  private static List<String> argv(AgentSetup agent, String... arguments) {
    List<String> argv = new ArrayList<>();
    argv.add(agent.java().toString());
    argv.addAll(agent.jvmOptions());
    argv.addAll(List.of(arguments));
    return argv;
  }
}
