package dev.noneops.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.noneops.cli.AnswerProtocol.Answer;
import dev.noneops.cli.AnswerProtocol.ProtocolException;
import dev.noneops.cli.AnswerProtocol.Request;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.event.Level;

class DaemonAnswerServerTest {
  private static final String BUILD = "1.2.3-test";
  private static final Duration READ_TIMEOUT = Duration.ofMillis(300);

  @TempDir
  Path root;

  private Path socket;
  private final StringWriter journal = new StringWriter();
  private final AtomicInteger inspections = new AtomicInteger();
  private DaemonAnswerServer server;

  @BeforeEach
  void paths() {
    socket = root.resolve("run/noneops/daemon.sock");
  }

  @AfterEach
  void stop() {
    if (server != null) {
      server.close();
    }
  }

  private DaemonAnswerServer start() {
    server = DaemonAnswerServer.start(
        socket,
        BUILD,
        (what, json) -> new InspectionReport(
            ExitCode.UNHEALTHY,
            what.command() + (json ? " as json" : " as text") + " #" + inspections.incrementAndGet()
                + "\n"),
        new JournalLogger("test", new PrintWriter(journal, true), Level.DEBUG),
        READ_TIMEOUT);
    return server;
  }

  private Answer ask(Inspection what, boolean json) throws IOException {
    return AnswerClient.ask(socket, new Request(BUILD, what, json), Duration.ofSeconds(2));
  }

  private static String text(Answer answer) {
    return new String(answer.stdout(), StandardCharsets.UTF_8);
  }

  @Test
  void theDaemonAnswersEachRequestWithAFreshInspectionAndItsExitCode() throws Exception {
    start();

    Answer first = ask(Inspection.STATUS, false);
    Answer second = ask(Inspection.LAUNCH_CHECK, true);

    assertThat(first.exitCode()).isEqualTo(7);
    assertThat(text(first)).isEqualTo("status as text #1\n");
    assertThat(text(second)).isEqualTo("allocation-launch-check as json #2\n");
  }

  @Test
  void theSocketIsRootsOnlyInADirectoryOfItsOwnAndGoesWithTheServer() throws Exception {
    start();

    assertThat(server.serving()).isTrue();
    assertThat(AnswerSocketFile.mode(socket).orElseThrow() & 0170777).isEqualTo(0140600);
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(socket.getParent())))
        .isEqualTo("rwx------");
    try (var entries = Files.list(socket.getParent())) {
      assertThat(entries).containsExactly(socket);
    }

    server.close();

    assertThat(Files.exists(socket, LinkOption.NOFOLLOW_LINKS)).isFalse();
  }

  @Test
  void anotherBuildGetsAMismatchAndNoInspection() throws Exception {
    start();

    assertThatThrownBy(() -> AnswerClient.ask(
            socket, new Request("9.9.9", Inspection.STATUS, false), Duration.ofSeconds(2)))
        .isInstanceOf(ProtocolException.class)
        .hasMessageContaining("another build: " + BUILD);
    assertThat(inspections).hasValue(0);
  }

  @Test
  void aBadRequestIsRefusedAndTheNextOneAnswered() throws Exception {
    start();

    assertThat(exchange("status please\n")).startsWith("noneops-answer/1 refused ");
    assertThat(text(ask(Inspection.STATUS, false))).isEqualTo("status as text #1\n");
  }

  @Test
  void aRequestLineOverTheLimitIsRefusedWithoutWaitingForItsEnd() throws Exception {
    start();

    String answer = exchange("noneops-answer/1 " + "x".repeat(AnswerProtocol.MAX_REQUEST_BYTES));

    assertThat(answer).startsWith("noneops-answer/1 refused ").contains("longer than 512 bytes");
    assertThat(inspections).hasValue(0);
  }

  @Test
  void aClientThatSendsNothingIsDroppedAfterTheReadTimeoutAndBlocksNoOther() throws Exception {
    start();
    try (SocketChannel silent = SocketChannel.open(StandardProtocolFamily.UNIX)) {
      silent.connect(UnixDomainSocketAddress.of(socket));
      long started = System.nanoTime();

      Answer answer = ask(Inspection.STATUS, false);

      assertThat(text(answer)).isEqualTo("status as text #1\n");
      assertThat(Duration.ofNanos(System.nanoTime() - started))
          .isLessThan(READ_TIMEOUT.plusSeconds(1));
      assertThat(new String(readAll(silent), StandardCharsets.UTF_8))
          .startsWith("noneops-answer/1 refused no request line");
    }
  }

  @Test
  void aSocketLeftByAKilledDaemonIsReplaced() throws Exception {
    Files.createDirectories(socket.getParent());
    ServerSocketChannel killed = ServerSocketChannel.open(StandardProtocolFamily.UNIX);
    killed.bind(UnixDomainSocketAddress.of(socket));
    killed.close(); // the file stays, as after a SIGKILL
    assertThat(Files.exists(socket, LinkOption.NOFOLLOW_LINKS)).isTrue();

    start();

    assertThat(server.serving()).isTrue();
    assertThat(text(ask(Inspection.STATUS, true))).isEqualTo("status as json #1\n");
  }

  @Test
  void aSocketAnotherProcessAnswersOnIsNotTaken() throws Exception {
    Files.createDirectories(socket.getParent());
    try (ServerSocketChannel other = ServerSocketChannel.open(StandardProtocolFamily.UNIX)) {
      other.bind(UnixDomainSocketAddress.of(socket));

      start();

      assertThat(server.serving()).isFalse();
      assertThat(journal.toString()).contains("another process answers on");
      server.close();
      assertThat(Files.exists(socket, LinkOption.NOFOLLOW_LINKS)).isTrue();
    }
  }

  @Test
  void aFileThatIsNotASocketIsKeptAndTheDaemonRunsWithoutAnswers() throws Exception {
    Files.createDirectories(socket.getParent());
    Files.writeString(socket, "the operator's notes\n");

    start();

    assertThat(server.serving()).isFalse();
    assertThat(journal.toString())
        .contains("<4>not answering status over a socket: " + socket
            + " exists and is not a socket; it is kept");
    server.close();
    assertThat(Files.readString(socket)).isEqualTo("the operator's notes\n");
    assertThatThrownBy(() -> ask(Inspection.STATUS, false)).isInstanceOf(IOException.class);
  }

  @Test
  void aFailedInspectionIsRefusedSoTheCliInspectsItself() throws Exception {
    server = DaemonAnswerServer.start(
        socket,
        BUILD,
        (what, json) -> {
          throw new IOException("EIO reading the layout");
        },
        new JournalLogger("test", new PrintWriter(journal, true), Level.DEBUG),
        READ_TIMEOUT);

    assertThatThrownBy(() -> ask(Inspection.STATUS, false))
        .isInstanceOf(ProtocolException.class)
        .hasMessageContaining("EIO reading the layout");
    assertThat(journal.toString()).contains("<4>cannot answer status");
  }

  /** Sends {@code request} as raw bytes and reads the whole answer. */
  private String exchange(String request) throws IOException {
    try (SocketChannel client = SocketChannel.open(StandardProtocolFamily.UNIX)) {
      client.connect(UnixDomainSocketAddress.of(socket));
      client.write(ByteBuffer.wrap(request.getBytes(StandardCharsets.UTF_8)));
      return new String(readAll(client), StandardCharsets.UTF_8);
    }
  }

  /**
   * Everything the daemon sent until it closed; a daemon that closes with part of the request
   * unread resets the connection after its answer, which ends the answer too.
   */
  private static byte[] readAll(SocketChannel channel) {
    ByteBuffer buffer = ByteBuffer.allocate(64 * 1024);
    try {
      while (channel.read(buffer) >= 0) {
        // until the daemon closes
      }
    } catch (IOException reset) {
      // the answer is what was read
    }
    return Arrays.copyOf(buffer.array(), buffer.position());
  }
}
