public class Solution {
    public static void main(String[] args) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < 1 << 16; i++) sb.append("0123456789abcdef\n");
        String chunk = sb.toString();
        while (true) System.out.print(chunk);
    }
}
