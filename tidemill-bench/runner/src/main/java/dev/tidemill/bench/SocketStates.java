package dev.tidemill.bench;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The TCP sockets a process holds, by state: its descriptors' socket inodes ({@code /proc/<pid>/fd})
 * looked up in {@code /proc/<pid>/net/tcp} and {@code tcp6}. A socket the peer closed and the process
 * has not is {@value #CLOSE_WAIT}.
 */
final class SocketStates {
    /** The kernel's TCP state of a socket whose peer sent FIN and whose owner has not closed it. */
    static final String CLOSE_WAIT = "CLOSE_WAIT";

    /** The kernel's states by their hexadecimal number in /proc/net/tcp ({@code include/net/tcp_states.h}). */
    private static final String[] NAMES = {"?", "ESTABLISHED", "SYN_SENT", "SYN_RECV", "FIN_WAIT1", "FIN_WAIT2", "TIME_WAIT", "CLOSE",
        CLOSE_WAIT, "LAST_ACK", "LISTEN", "CLOSING", "NEW_SYN_RECV"};

    private SocketStates() {}

    /**
     * @param pid a process of this user
     * @return how many of its TCP sockets are in each state (state name to count)
     * @throws IllegalStateException when its descriptors or its network tables cannot be read
     */
    static Map<String, Integer> of(long pid) {
        Set<Long> inodes = new HashSet<>();
        try (DirectoryStream<Path> fds = Files.newDirectoryStream(Path.of("/proc/" + pid + "/fd"))) {
            for (Path fd : fds) {
                try {
                    String link = Files.readSymbolicLink(fd).toString();
                    if (link.startsWith("socket:[")) inodes.add(Long.parseLong(link.substring(8, link.length() - 1)));
                } catch (IOException closedMeanwhile) {
                    // the descriptor was closed between the listing and the read
                }
            }
            return count(Files.readString(Path.of("/proc/" + pid + "/net/tcp")) + Files.readString(Path.of("/proc/" + pid + "/net/tcp6")),
                    inodes);
        } catch (IOException e) {
            throw new IllegalStateException("cannot read the sockets of process " + pid + ": " + e.getMessage(), e);
        }
    }

    /**
     * @param tables the text of /proc/net/tcp (and tcp6): a heading line, then one socket per line
     * @param inodes the inodes to count
     * @return state name to count, of the sockets with those inodes
     */
    static Map<String, Integer> count(String tables, Set<Long> inodes) {
        Map<String, Integer> out = new TreeMap<>();
        for (String line : tables.split("\n")) {
            String[] f = line.trim().split("\\s+");
            // sl local_address rem_address st tx_queue:rx_queue tr:tm->when retrnsmt uid timeout inode ...
            if (f.length < 10 || !f[0].endsWith(":")) continue;
            if (!inodes.contains(Long.parseLong(f[9]))) continue;
            int state = Integer.parseInt(f[3], 16);
            out.merge(state < NAMES.length ? NAMES[state] : f[3], 1, Integer::sum);
        }
        return out;
    }
}
