import java.io.*;

class Main {
    public static void main(String[] args) throws IOException {
        BufferedReader r = new BufferedReader(new InputStreamReader(System.in));
        String[] p = r.readLine().trim().split("\\s+");
        System.out.println(Long.parseLong(p[0]) + Long.parseLong(p[1]));
    }
}
