// bench/quality/peers/BoilerpipeDriver.java: the peer boilerpipe 1.2 ArticleExtractor (Debian
// libboilerpipe-java) on prepared pages, run with Java's single-file launcher by realpages.sh:
//   java -cp /usr/share/java/boilerpipe.jar:/usr/share/java/nekohtml.jar:/usr/share/java/xercesImpl.jar \
//       BoilerpipeDriver.java OUTDIR FILE...
// Writes OUTDIR/<id>.content.txt (getText) and OUTDIR/pages.tsv (id, html_bytes, CPU seconds of the
// thread for getText alone). The JVM is warmed first on the first 50 pages (not timed twice: the
// timed pass is a second run over every page), so the figure is boilerpipe's steady speed.
import de.l3s.boilerpipe.extractors.ArticleExtractor;
import java.io.PrintWriter;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;

public class BoilerpipeDriver {
    public static void main(String[] args) throws Exception {
        Path out = Paths.get(args[0]);
        ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        for (int i = 1; i < Math.min(args.length, 51); i++) {
            try {
                ArticleExtractor.INSTANCE.getText(Files.readString(Paths.get(args[i]), StandardCharsets.UTF_8));
            } catch (Exception e) {
                // reported in the timed pass
            }
        }
        try (PrintWriter tsv = new PrintWriter(Files.newBufferedWriter(out.resolve("pages.tsv"), StandardCharsets.UTF_8))) {
            for (int i = 1; i < args.length; i++) {
                Path p = Paths.get(args[i]);
                String name = p.getFileName().toString();
                String id = name.substring(0, name.length() - ".html".length());
                String html = Files.readString(p, StandardCharsets.UTF_8);
                long t0 = mx.getCurrentThreadCpuTime();
                String text = null;
                try {
                    text = ArticleExtractor.INSTANCE.getText(html);
                } catch (Exception e) {
                    System.err.println("boilerpipe: " + id + ": " + e);
                }
                long t1 = mx.getCurrentThreadCpuTime();
                if (text != null) Files.writeString(out.resolve(id + ".content.txt"), text, StandardCharsets.UTF_8);
                tsv.printf("%s\t%d\t%.6f%n", id, html.getBytes(StandardCharsets.UTF_8).length, (t1 - t0) / 1e9);
            }
        }
    }
}
