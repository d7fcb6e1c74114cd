-- Region vn's database beside global's (compose.yaml), owned by the same user.
create database learning_vn;
