package dev.noneops.testkit.standins;

import java.io.IOException;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A stand-in for CoreDNS, the LocalDNS server: reads the Corefile given with {@code -conf},
 * listens for DNS over UDP on the address of its {@code bind} directive and the port of its
 * server blocks, and answers every well-formed query with NXDOMAIN (the question echoed, no
 * records). Enough for the node's "LocalDNS answers" readiness check and for a test to prove the
 * server runs with the Corefile the node wrote.
 */
public final class CoreDnsStandIn {
  private static final Pattern SERVER_BLOCK = Pattern.compile("(?m)^\\s*[^\\s#{]+:(\\d+)\\s*\\{");
  private static final Pattern BIND = Pattern.compile("(?m)^\\s*bind\\s+(\\S+)");

  private CoreDnsStandIn() {}

  public static void main(String[] args) throws IOException {
    List<String> argv = Arrays.asList(args);
    if (argv.contains("-version") || argv.contains("--version")) {
      System.out.println("CoreDNS-0.0.0-standin");
      return;
    }
    int conf = argv.indexOf("-conf");
    if (conf < 0 || conf + 1 >= args.length) {
      System.err.println("coredns stand-in: usage: coredns -conf <Corefile>");
      System.exit(2);
    }
    Listen listen =
        Listen.fromCorefile(Files.readString(Path.of(args[conf + 1]), StandardCharsets.UTF_8));
    try (DatagramSocket socket = new DatagramSocket(
        new InetSocketAddress(InetAddress.getByName(listen.address()), listen.port()))) {
      System.out.println("coredns stand-in: answering DNS on " + listen.address() + ":"
          + socket.getLocalPort() + "/udp");
      System.out.flush();
      StandInExit.promptly(socket::close);
      serve(socket);
    }
  }

  /** Answers queries on {@code socket} until it is closed. */
  public static void serve(DatagramSocket socket) throws IOException {
    byte[] buffer = new byte[512];
    while (!socket.isClosed()) {
      DatagramPacket query = new DatagramPacket(buffer, buffer.length);
      try {
        socket.receive(query);
      } catch (SocketException closed) {
        return;
      }
      byte[] reply = answer(Arrays.copyOf(query.getData(), query.getLength()));
      if (reply.length > 0) {
        socket.send(new DatagramPacket(reply, reply.length, query.getSocketAddress()));
      }
    }
  }

  /** The NXDOMAIN reply to {@code query}, or nothing when it is not a well-formed single question. */
  static byte[] answer(byte[] query) {
    if (query.length < 12 || (query[2] & 0x80) != 0) {
      return new byte[0];
    }
    int qdcount = ((query[4] & 0xff) << 8) | (query[5] & 0xff);
    if (qdcount != 1) {
      return new byte[0];
    }
    int end = 12;
    while (end < query.length && query[end] != 0) {
      end += (query[end] & 0xff) + 1;
    }
    end += 5; // the root label, QTYPE and QCLASS
    if (end > query.length) {
      return new byte[0];
    }
    byte[] reply = Arrays.copyOf(query, end);
    reply[2] = (byte) (0x80 | (query[2] & 0x79)); // QR, the opcode and RD copied
    reply[3] = (byte) 0x83; // RA, RCODE NXDOMAIN
    reply[6] = 0;
    reply[7] = 0;
    reply[8] = 0;
    reply[9] = 0;
    reply[10] = 0;
    reply[11] = 0;
    return reply;
  }

  /** Where a Corefile makes the server listen: its first {@code bind} address and server-block port. */
  public record Listen(String address, int port) {
    public static Listen fromCorefile(String corefile) {
      List<Integer> ports = new ArrayList<>();
      Matcher block = SERVER_BLOCK.matcher(corefile);
      while (block.find()) {
        ports.add(Integer.parseInt(block.group(1)));
      }
      Matcher bind = BIND.matcher(corefile);
      String address = bind.find() ? bind.group(1) : "0.0.0.0";
      return new Listen(address, ports.isEmpty() ? 53 : ports.get(0));
    }
  }
}
