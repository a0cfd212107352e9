import java.io.*;

public class Main {
    public static void main(String[] args) throws IOException {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in));
        int lo = 1, hi = 1000;
        while (lo <= hi) {
            int mid = (lo + hi) / 2;
            System.out.println("? " + mid);
            System.out.flush();
            String r = in.readLine();
            if (r == null || r.equals("=")) return;
            if (r.equals("<")) hi = mid - 1; else lo = mid + 1;
        }
    }
}
