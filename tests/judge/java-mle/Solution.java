import java.util.*;

public class Solution {
    public static void main(String[] args) {
        List<long[]> keep = new ArrayList<>();
        for (int i = 0; i < 1024; i++) keep.add(new long[1 << 17]); // 1 GiB total under a 64 MiB heap
        System.out.println(keep.size());
    }
}
